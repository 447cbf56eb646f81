// The main window's File > Export and View > Save picture of this view:
// what each file holds, its name, and writing it.
#include "shell/mainwindow.h"

#include "kit/savefile.h"
#include "kit/widgetpicture.h"
#include "lessons/lessonpanel.h"
#include "lessons/stepfigures.h"
#include "lib/json.h"
#include "report/runreport.h"
#include "sim/run_tables.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QStatusBar>
#include <QTabWidget>

namespace pcl::ui {

namespace {
/// The wait cursor while a file is written: a long run's trace is tens of
/// megabytes, and the window does not answer until it is out.
struct BusyCursor {
    BusyCursor() { QGuiApplication::setOverrideCursor(Qt::WaitCursor); }
    ~BusyCursor() { QGuiApplication::restoreOverrideCursor(); }
    BusyCursor(const BusyCursor&) = delete;
    BusyCursor& operator=(const BusyCursor&) = delete;
};
} // namespace

QString MainWindow::exportWhat(Export kind) const
{
    switch (kind) {
    case Export::ReportHtml:
    case Export::ReportPdf:
        return tr("the report");
    case Export::Result:
        return tr("the run's result");
    case Export::TimeSeries:
        return tr("the time series");
    case Export::Locks:
        return tr("the lock table");
    case Export::Trace:
        return tr("the trace");
    case Export::Scenario:
        return tr("the scenario");
    }
    return {};
}

QString MainWindow::exportFileName(Export kind) const
{
    const QString stem = sim_.fileStem();
    switch (kind) {
    case Export::ReportHtml:
        return stem + QStringLiteral("_report.html");
    case Export::ReportPdf:
        return stem + QStringLiteral("_report.pdf");
    case Export::Result:
        return stem + QStringLiteral("_result.json");
    case Export::TimeSeries:
        return stem + QStringLiteral("_timeseries.csv");
    case Export::Locks:
        return stem + QStringLiteral("_locks.csv");
    case Export::Trace:
        return stem + QStringLiteral("_trace.json");
    case Export::Scenario:
        return stem + QStringLiteral(".json");
    }
    return stem;
}

QString MainWindow::exportUnavailable(Export kind) const
{
    if (sim_.state() == Simulation::State::Empty)
        return tr("Open an experiment or a lesson first: there is nothing to export yet.");
    if (kind == Export::Scenario || sim_.hasResult())
        return {};
    // A lesson's report may hold only its steps and verdicts.
    const bool report = kind == Export::ReportHtml || kind == Export::ReportPdf;
    if (report && lessonPanel_->hasLesson() && lessonPanel_->verdicts())
        return {};
    if (sim_.state() == Simulation::State::Failed)
        return tr("This run could not start, so it measured nothing: change the parameters the message names.");
    return tr("Play or step the run first: it has measured nothing yet.");
}

void MainWindow::updateExportActions()
{
    // What each file holds while it can be saved; why not while it cannot.
    const std::pair<Export, QString> kMeaning[] = {
        { Export::ReportHtml,
            tr("One page for a browser: the scenario, its figures, charts, lock table and latencies, and a lesson's "
               "steps and verdicts") },
        { Export::ReportPdf, tr("The same report as a PDF, for print") },
        { Export::Result, tr("Every figure of the run so far: totals, locks, latencies and the time series") },
        { Export::TimeSeries, tr("The run's figures sampled over time, one row per sample, for a spreadsheet") },
        { Export::Locks, tr("Each lock and lock class: acquisitions, contentions, wait and hold times") },
        { Export::Trace,
            tr("What each CPU and disk did, on a time line: open it in Perfetto (ui.perfetto.dev) or "
               "chrome://tracing") },
        { Export::Scenario, tr("The scenario as it is set now, to open again or run from the command line") },
    };
    for (const auto& [kind, meaning] : kMeaning) {
        QAction* a = exportActions_.at(kind);
        const QString why = exportUnavailable(kind);
        a->setEnabled(why.isEmpty());
        a->setToolTip(why.isEmpty() ? meaning : why);
        a->setStatusTip(a->toolTip());
    }
}

SaveResult MainWindow::exportTo(Export kind, const QString& path, QString* error)
{
    if (const QString why = exportUnavailable(kind); !why.isEmpty()) {
        if (error)
            *error = why;
        return SaveResult::Failed;
    }
    return ui::saveFile(
        this, path,
        [this, kind](const QString& to, QString* why) {
            const BusyCursor busy;
            if (kind == Export::ReportHtml || kind == Export::ReportPdf) {
                const std::optional<RunResult> result = sim_.result();
                ReportSubject subject;
                subject.run = result ? &*result : nullptr;
                subject.stem = sim_.fileStem();
                if (lessonPanel_->hasLesson()) {
                    subject.lesson = &lessonPanel_->lesson();
                    if (lessonPanel_->verdicts())
                        subject.verdicts = &*lessonPanel_->verdicts();
                    subject.stepFigures = lessonPanel_->stepFigures()->rows();
                }
                return kind == Export::ReportHtml ? writeReportHtml(subject, to, why)
                                                  : writeReportPdf(subject, to, why);
            }
            std::string text;
            if (kind == Export::Scenario) {
                text = json::write(scenario_to_json(sim_.scenario())) + "\n";
            } else {
                // The files `pagecache-lab-cli run --out` writes, from the
                // same functions, so that both read alike.
                const std::optional<RunResult> result = sim_.result();
                if (!result) {
                    *why = tr("the run has measured nothing yet");
                    return false;
                }
                if (kind == Export::Result)
                    text = json::write(to_json(*result)) + "\n";
                else if (kind == Export::TimeSeries)
                    text = series_csv(*result);
                else if (kind == Export::Locks)
                    text = locks_csv(*result);
                else
                    text = sim_.trace().json(*result);
            }
            return writeFileAtomically(to, QByteArray::fromStdString(text), why);
        },
        error);
}

void MainWindow::exportAs(Export kind)
{
    const QString suffix = QFileInfo(exportFileName(kind)).suffix();
    const QString filter = suffix == QLatin1String("csv") ? tr("CSV, for a spreadsheet (*.csv)")
        : suffix == QLatin1String("html")                 ? tr("Web page (*.html)")
        : suffix == QLatin1String("pdf")                  ? tr("PDF document (*.pdf)")
                                                          : tr("JSON (*.json)");
    const QString title = tr("Export %1").arg(exportWhat(kind));
    const QString path = askSavePath(this, title, exportFileName(kind), filter);
    if (path.isEmpty())
        return;
    QString error;
    const bool playing = sim_.state() == Simulation::State::Running;
    switch (exportTo(kind, path, &error)) {
    case SaveResult::Saved:
        statusBar()->showMessage(
            (playing && sim_.state() == Simulation::State::Paused
                    ? tr("Saved %1 to %2. The run was paused so that its figures held still: press Space to go on.")
                    : tr("Saved %1 to %2."))
                .arg(exportWhat(kind), QDir::toNativeSeparators(path)),
            10000);
        break;
    case SaveResult::Failed:
        showSaveFailure(this, title, exportWhat(kind), path, error);
        break;
    case SaveResult::Declined:
        break;
    }
}

SaveResult MainWindow::saveViewPicture(const QString& path, QString* error)
{
    QWidget* view = showingRun() ? currentView() : nullptr;
    if (!view) {
        if (error)
            *error = tr("no view is shown: open an experiment or a lesson first");
        return SaveResult::Failed;
    }
    return ui::saveFile(
        this, path, [view](const QString& to, QString* why) { return saveWidgetPicture(view, to, why); }, error);
}

QString MainWindow::viewPictureFileName() const
{
    // Named by its tab, as the student knows it: "..._hash-table.png".
    return sim_.fileStem() + QLatin1Char('_') + fileNameStem(views_->tabText(views_->currentIndex()))
        + QStringLiteral(".png");
}

void MainWindow::saveViewPictureAs()
{
    if (!showingRun())
        return;
    const QString path = askSavePath(this, tr("Save picture of this view"), viewPictureFileName(),
        tr("PNG image, as on screen (*.png);;SVG drawing, for slides and print (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    switch (saveViewPicture(path, &error)) {
    case SaveResult::Saved:
        statusBar()->showMessage(tr("Saved the picture to %1").arg(QDir::toNativeSeparators(path)), 8000);
        break;
    case SaveResult::Failed:
        showSaveFailure(this, tr("Save picture of this view"), tr("the picture"), path, error);
        break;
    case SaveResult::Declined:
        break;
    }
}

} // namespace pcl::ui
