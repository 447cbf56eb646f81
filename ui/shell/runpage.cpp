#include "shell/runpage.h"

#include "charts/chartsview.h"
#include "kit/indexkindmessage.h"
#include "kit/savefile.h"
#include "kit/widgetpicture.h"
#include "lessons/lessonpanel.h"
#include "lessons/proberesultsview.h"
#include "lessons/stepfigures.h"
#include "lib/json.h"
#include "locks/lockview.h"
#include "log/eventlogview.h"
#include "report/runreport.h"
#include "run/parameterspanel.h"
#include "run/rewindbar.h"
#include "run/runtoolbar.h"
#include "shell/dockforward.h"
#include "sim/debugfs.h"
#include "sim/run_tables.h"
#include "views/hash/hashview.h"
#include "views/pagestate/pagestateview.h"
#include "views/pagetable/pagetableview.h"
#include "views/radix/radixtreeview.h"
#include "views/skiplist/skiplistview.h"
#include "views/timeline/timelineview.h"
#include "views/tornpte/tornpteview.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <span>

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

/// What each export is, once: its entry in File > Export, its action's
/// name, its name in a message, the end of its file's name, its file type,
/// and what it holds (the action's tooltip while it can be saved).
struct ExportText {
    RunPage::Export kind;
    QString title;
    const char* name;
    QString what;
    QString fileEnd;
    QString filter;
    QString meaning;
};

/// Every export, in File > Export's order.
std::span<const ExportText> exportTexts()
{
    using Export = RunPage::Export;
    static const QString json = RunPage::tr("JSON (*.json)");
    static const QString csv = RunPage::tr("CSV, for a spreadsheet (*.csv)");
    static const ExportText kTexts[] = {
        { Export::ReportHtml, RunPage::tr("Report (&HTML)…"), "exportReportHtmlAction", RunPage::tr("the report"),
            QStringLiteral("_report.html"), RunPage::tr("Web page (*.html)"),
            RunPage::tr("One page for a browser: the scenario, its figures, charts, lock table and latencies, and a "
                        "lesson's steps and verdicts") },
        { Export::ReportPdf, RunPage::tr("Report (&PDF)…"), "exportReportPdfAction", RunPage::tr("the report"),
            QStringLiteral("_report.pdf"), RunPage::tr("PDF document (*.pdf)"),
            RunPage::tr("The same report as a PDF, for print") },
        { Export::Result, RunPage::tr("Run &result (JSON)…"), "exportResultAction", RunPage::tr("the run's result"),
            QStringLiteral("_result.json"), json,
            RunPage::tr("Every figure of the run so far: totals, locks, latencies and the time series") },
        { Export::TimeSeries, RunPage::tr("&Time series (CSV)…"), "exportTimeSeriesAction",
            RunPage::tr("the time series"), QStringLiteral("_timeseries.csv"), csv,
            RunPage::tr("The run's figures sampled over time, one row per sample, for a spreadsheet") },
        { Export::Locks, RunPage::tr("&Lock table (CSV)…"), "exportLocksAction", RunPage::tr("the lock table"),
            QStringLiteral("_locks.csv"), csv,
            RunPage::tr("Each lock and lock class: acquisitions, contentions, wait and hold times") },
        { Export::Trace, RunPage::tr("T&race for Perfetto (JSON)…"), "exportTraceAction", RunPage::tr("the trace"),
            QStringLiteral("_trace.json"), json,
            RunPage::tr("What each CPU and disk did, on a time line: open it in Perfetto (ui.perfetto.dev) or "
                        "chrome://tracing") },
        { Export::Scenario, RunPage::tr("&Scenario…"), "exportScenarioAction", RunPage::tr("the scenario"),
            QStringLiteral(".json"), json,
            RunPage::tr("The scenario as it is set now, to open again or run from the command line") },
    };
    return kTexts;
}

const ExportText& exportText(RunPage::Export kind)
{
    const std::span<const ExportText> texts = exportTexts();
    return *std::find_if(texts.begin(), texts.end(), [kind](const ExportText& t) { return t.kind == kind; });
}

} // namespace

RunPage::RunPage(QMainWindow& window, QWidget* parent)
    : QWidget(parent)
    , window_(window)
{
    setObjectName(QStringLiteral("runPage"));
    toolBar_ = new RunToolBar(sim_, &window_);
    window_.addToolBar(Qt::TopToolBarArea, toolBar_);
    createViewsAndDocks();
    createExportActions();
    connect(&sim_, &Simulation::stateChanged, this, [this](Simulation::State s) {
        if (s == Simulation::State::Failed)
            window_.statusBar()->showMessage(tr("The run failed: %1").arg(sim_.error()));
    });
}

RunPage::~RunPage()
{
    // The views, docks and toolbar watch sim_, and some let go of it in
    // their destructors: they go first, while it is still there (members
    // are destroyed before QWidget deletes the children).
    qDeleteAll(docks_);
    delete toolBar_;
    delete views_;
}

void RunPage::createViewsAndDocks()
{
    // The centre: what each CPU is doing, and the data structures and I/O
    // as they are in the running core, one tab each (Ctrl+1...).
    auto* timeline = new TimelineView(sim_);
    timeline->setObjectName(QStringLiteral("cpus"));
    views_ = new QTabWidget;
    views_->setObjectName(QStringLiteral("centreViews"));
    views_->setDocumentMode(true);
    views_->addTab(timeline, tr("CPUs"));
    auto* radix = new RadixTreeView(sim_);
    auto* skiplist = new SkipListView(sim_);
    auto* pagestate = new PageStateView(sim_);
    views_->addTab(radix, tr("Radix tree"));
    auto* hash = new HashView(sim_);
    views_->addTab(hash, tr("Hash table"));
    views_->addTab(skiplist, tr("Skip list"));
    views_->addTab(pagestate, tr("Readahead"));
    views_->addTab(new PageTableView(sim_), tr("Page table"));
    // The torn PTE read, walked operation by operation: no run of the
    // machine, only beside the lesson that uses it.
    tornPte_ = new TornPteView;
    tornPte_->setObjectName(QStringLiteral("tornpte"));
    views_->addTab(tornPte_, tr("Torn PTE"));
    views_->setTabVisible(views_->indexOf(tornPte_), false);
    for (int i = 0; i < views_->count() && i < 9; ++i) {
        auto* go = new QAction(this);
        go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(go, &QAction::triggered, this, [this, i] { views_->setCurrentIndex(i); });
        window_.addAction(go);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(views_);
    // The moment of the run, under the views it changes.
    rewindBar_ = new RewindBar(sim_, [timeline](double clockNs) {
        const double span = timeline->viewSpanNs();
        timeline->setViewRange(clockNs - span / 2, span);
    });
    layout->addWidget(rewindBar_);
    // The CPU in focus is the one outlined on the timeline (a click on its
    // name, or a lesson step's).
    rewindBar_->setFocusedCpu([timeline] { return timeline->highlightedCpu(); });
    // Which machine the run is on, always in sight: on a modelled one every
    // time shown is virtual.
    machineNote_ = new QLabel;
    machineNote_->setObjectName(QStringLiteral("machineNote"));
    window_.statusBar()->addPermanentWidget(machineNote_);
    connect(&sim_, &Simulation::runReset, this, [this] {
        machineNote_->setText(sim_.machineText());
        machineNote_->setVisible(!machineNote_->text().isEmpty());
    });
    traceNote_ = new QLabel;
    traceNote_->setObjectName(QStringLiteral("traceNote"));
    traceNote_->hide();
    window_.statusBar()->addPermanentWidget(traceNote_);
    connect(&sim_, &Simulation::runReset, this, &RunPage::updateTraceNote);
    connect(&sim_, &Simulation::runReset, this, &RunPage::updateViewTabs);

    auto* charts = new ChartsView(sim_);
    auto* parameters = new ParametersPanel(sim_);
    auto* locks = new LockView(sim_);
    auto* log = new EventLogView(sim_);
    chartsDock_ = addDock(charts, tr("Charts"), QStringLiteral("chartsDock"), Qt::RightDockWidgetArea);
    QDockWidget* parametersDock
        = addDock(parameters, tr("Parameters"), QStringLiteral("parametersDock"), Qt::RightDockWidgetArea);
    QDockWidget* locksDock = addDock(locks, tr("Locks"), QStringLiteral("locksDock"), Qt::BottomDockWidgetArea);
    QDockWidget* logDock = addDock(log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    // A lock selected in the table is outlined on the timeline and is what
    // the log shows.
    connect(locks, &LockView::lockSelected, timeline, &TimelineView::setHighlightedLock);
    connect(locks, &LockView::lockSelected, log, &EventLogView::setFilterText);
    window_.tabifyDockWidget(chartsDock_, parametersDock);
    window_.tabifyDockWidget(locksDock, logDock);

    // The lesson, on the left of the views, in a dock of its own so that a
    // step bringing the charts or the lock table forward never hides it;
    // shown when a lesson is open. What a step brings forward and outlines
    // is the views' own selection.
    lessonPanel_ = new LessonPanel(sim_);
    lessonDock_ = addDock(lessonPanel_, tr("Lesson"), QStringLiteral("lessonDock"), Qt::LeftDockWidgetArea);
    lessonDock_->hide();
    // Its verdict table, the width of the window, beside the lock table.
    verdictDock_
        = addDock(lessonPanel_->verdictView(), tr("Verdict"), QStringLiteral("verdictDock"), Qt::BottomDockWidgetArea);
    window_.tabifyDockWidget(locksDock, verdictDock_);
    verdictDock_->hide();
    // Its measurements of the structures themselves, as wide as the window
    // too: one column per measurement, to compare across.
    measurementsDock_ = addDock(
        lessonPanel_->probeResults(), tr("Measurements"), QStringLiteral("measurementsDock"), Qt::BottomDockWidgetArea);
    window_.tabifyDockWidget(locksDock, measurementsDock_);
    measurementsDock_->hide();

    // Where a step's modelled run paused by itself is bookmarked with the
    // step's name: a class can be taken back to it at any time.
    connect(lessonPanel_, &LessonPanel::pausedByItself, this, [this](const QString& name) {
        if (sim_.canRewind())
            rewindBar_->addBookmark(sim_.runningNs(), name);
    });
    connect(lessonPanel_, &LessonPanel::measured, this, [this] {
        bringForward(verdictDock_);
        // Room for every claim's row, not the lock table's few lines.
        window_.resizeDocks({ verdictDock_ }, { window_.height() / 2 }, Qt::Vertical);
    });
    connect(lessonPanel_, &LessonPanel::viewRequested, this, [this, locksDock](const QString& view) {
        // A dock's step shows the CPUs in the centre, whatever an earlier
        // step or run left there: who holds, who waits.
        if (view == QLatin1String("charts")) {
            bringForward(chartsDock_);
            showView(QStringLiteral("cpus"));
        } else if (view == QLatin1String("locks")) {
            bringForward(locksDock);
            showView(QStringLiteral("cpus"));
        } else if (view == QLatin1String("probe")) {
            // The measurements are what the step is about: room for them.
            bringForward(measurementsDock_);
            window_.resizeDocks({ measurementsDock_ }, { window_.height() / 2 }, Qt::Vertical);
        } else {
            showView(view);
        }
    });
    // A lesson names lock classes; their rows exist once the run has taken
    // them, so the selection is tried again on each tick until it holds.
    connect(lessonPanel_, &LessonPanel::lockHighlighted, this, [this, locks, timeline](const QString& name) {
        if (!name.isEmpty())
            locks->setMode(LockTableModel::Mode::PerClass);
        locks->selectLock(name);
        timeline->setHighlightedLock(name);
        pendingLock_ = locks->selectedLock() == name ? QString() : name;
    });
    // A step that pauses its run shows the counts it paused on.
    connect(&sim_, &Simulation::stateChanged, locks, &LockView::refresh);
    connect(&sim_, &Simulation::ticked, this, [this, locks] {
        if (pendingLock_.isEmpty())
            return;
        locks->refresh();
        locks->selectLock(pendingLock_);
        if (locks->selectedLock() == pendingLock_)
            pendingLock_.clear();
    });
    connect(
        lessonPanel_, &LessonPanel::probeViewRequested, this, [this](const QString& view, const QStringList& settings) {
            if (view != QLatin1String("tornpte"))
                return;
            QString method = QStringLiteral("naive"), interleaving = QStringLiteral("ab_cd");
            QString mode;
            PteExploreConfig explore;
            for (const QString& s : settings) {
                const QString name = s.section(QLatin1Char('='), 0, 0);
                const QString value = s.section(QLatin1Char('='), 1);
                if (name == QLatin1String("method"))
                    method = value;
                else if (name == QLatin1String("interleaving"))
                    interleaving = value;
                else if (name == QLatin1String("mode"))
                    mode = value;
                else if (name == QLatin1String("strategy"))
                    explore.strategy = sched::parse_strategy(value.toStdString()).value_or(explore.strategy);
                else if (name == QLatin1String("depth"))
                    explore.depth = value.toUInt();
                else if (name == QLatin1String("seed"))
                    explore.seed = value.toULongLong();
                else if (name == QLatin1String("schedules"))
                    explore.schedules = value.toULongLong();
                else if (name == QLatin1String("updates"))
                    explore.updates = value.toUInt();
            }
            views_->setTabVisible(views_->indexOf(tornPte_), true);
            bringForward(measurementsDock_);
            // The settings were checked against the probe's parameters:
            // the explorer's schedule is the one the probe counts.
            if (mode == QLatin1String("explore")) {
                explore.method = parse_pte_read_method(method.toStdString());
                tornPte_->explore(explore);
                return;
            }
            tornPte_->setScript(parse_pte_read_method(method.toStdString()), interleaving.toStdString());
        });
    connect(lessonPanel_, &LessonPanel::fileHighlighted, this, [radix, skiplist, pagestate](FileId f) {
        radix->selectFile(f);
        skiplist->setFile(f);
        pagestate->setFile(f);
    });
    connect(lessonPanel_, &LessonPanel::bucketHighlighted, hash, &HashView::selectBucket);
    connect(lessonPanel_, &LessonPanel::nodeHighlighted, radix, &RadixTreeView::setHighlightedNode);
    connect(lessonPanel_, &LessonPanel::cpuHighlighted, timeline, &TimelineView::setHighlightedCpu);
    chartsDock_->raise();
    locksDock->raise();
    window_.resizeDocks({ chartsDock_ }, { 520 }, Qt::Horizontal);
    window_.resizeDocks({ locksDock }, { 230 }, Qt::Vertical);
}

QDockWidget* RunPage::addDock(QWidget* view, const QString& title, const QString& objectName, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, &window_);
    dock->setObjectName(objectName);
    dock->setWidget(view);
    dock->setFeatures(
        QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetFloatable);
    window_.addDockWidget(area, dock);
    docks_.append(dock);
    return dock;
}

QStringList RunPage::viewNames() const
{
    QStringList names;
    for (int i = 0; i < views_->count(); ++i)
        names << views_->widget(i)->objectName();
    return names;
}

int RunPage::tabOf(const QString& name) const
{
    for (int i = 0; i < views_->count(); ++i)
        if (views_->widget(i)->objectName() == name)
            return i;
    return -1;
}

bool RunPage::showView(const QString& name)
{
    const int i = tabOf(name);
    if (i < 0)
        return false;
    views_->setCurrentIndex(i);
    return true;
}

bool RunPage::viewEnabled(const QString& name) const
{
    const int i = tabOf(name);
    return i >= 0 && views_->isTabEnabled(i);
}

QString RunPage::tabToolTip(const QString& name) const
{
    const int i = tabOf(name);
    return i >= 0 ? views_->tabToolTip(i) : QString();
}

QWidget* RunPage::currentView() const
{
    return views_->currentWidget();
}

void RunPage::updateViewTabs()
{
    // The index the run uses: the built engine's files say (a replayed
    // trace has the files it names, pft none); a run that failed to build
    // has the scenario's.
    std::optional<IndexKind> used = sim_.scenario().engine.index.kind;
    if (const std::optional<Debugfs> fs = sim_.debugfs())
        used = fs->index_kind();
    static const std::pair<const char*, IndexKind> kIndexViews[]
        = { { "radix", IndexKind::Radix }, { "hash", IndexKind::Hash }, { "skiplist", IndexKind::SkipList } };
    for (const auto& [name, kind] : kIndexViews) {
        const int i = tabOf(QLatin1String(name));
        if (i < 0)
            continue;
        // Without a scenario every tab stays open: each says how to get a run.
        const QString why = sim_.state() == Simulation::State::Empty ? QString() : indexNotInUse(used, kind);
        views_->setTabEnabled(i, why.isEmpty());
        views_->setTabToolTip(i, why);
    }
}

void RunPage::hideLessonDocks()
{
    lessonDock_->hide();
    verdictDock_->hide();
    measurementsDock_->hide();
}

void RunPage::showLessonDocks()
{
    // The lesson's docks only beside a lesson, the verdict once measured;
    // its measurements' view only for a lesson that makes some.
    lessonDock_->setVisible(lessonPanel_->hasLesson());
    const bool probes = lessonPanel_->hasLesson()
        && std::any_of(lessonPanel_->lesson().runs.begin(), lessonPanel_->lesson().runs.end(),
            [](const LessonRun& r) { return r.is_probe(); });
    measurementsDock_->setVisible(probes);
    const bool tornPte = lessonPanel_->hasLesson()
        && std::any_of(lessonPanel_->lesson().steps.begin(), lessonPanel_->lesson().steps.end(),
            [](const LessonStep& s) { return s.view == "tornpte"; });
    views_->setTabVisible(views_->indexOf(tornPte_), tornPte);
    // A tab hidden asks for no room: its least height took the lock table's.
    tornPte_->setSizePolicy(tornPte ? QSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred)
                                    : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
    verdictDock_->setVisible(lessonPanel_->hasLesson() && lessonPanel_->verdicts().has_value());
}

void RunPage::setShown(bool shown)
{
    shown_ = shown;
    toolBar_->setVisible(shown);
    // The window shows the docks again, as they were laid out (DockZoom).
    if (!shown)
        for (QDockWidget* dock : docks_)
            dock->hide();
    savePictureAction_->setEnabled(shown);
}

void RunPage::updateTraceNote()
{
    const auto& plan = sim_.scenario().engine.trace;
    if (!plan) {
        traceNote_->hide();
        return;
    }
    const Trace& t = plan->trace();
    QString note = tr("Replaying %1: %2 accesses by %3 threads")
                       .arg(QFileInfo(QString::fromStdString(sim_.scenario().trace.path)).fileName())
                       .arg(t.events.size())
                       .arg(plan->threads());
    QString tip;
    if (t.skipped_lines) {
        note += tr("; %n bad line(s) skipped", nullptr, int(std::min<std::uint64_t>(t.skipped_lines, INT32_MAX)));
        for (const TraceLineError& e : t.errors)
            tip += tr("line %1: %2: %3\n")
                       .arg(e.line)
                       .arg(QString::fromStdString(e.reason), QString::fromStdString(e.content).left(120));
        if (t.skipped_lines > t.errors.size())
            tip += tr("(the first %1 of %2 shown)").arg(t.errors.size()).arg(t.skipped_lines);
    }
    traceNote_->setText(note);
    traceNote_->setToolTip(tip.trimmed());
    traceNote_->show();
}

void RunPage::createExportActions()
{
    // Everything a report or a later look needs, in the forms the command
    // line writes, so that a file saved here and one `pagecache-lab-cli
    // run --out` wrote read alike.
    for (const ExportText& text : exportTexts()) {
        const Export kind = text.kind;
        if (kind == Export::Result || kind == Export::Trace || kind == Export::Scenario) {
            auto* separator = new QAction(this);
            separator->setSeparator(true);
            exportMenu_.append(separator);
        }
        auto* a = new QAction(text.title, this);
        a->setObjectName(QLatin1String(text.name));
        connect(a, &QAction::triggered, this, [this, kind] { exportAs(kind); });
        exportActions_[kind] = a;
        exportMenu_.append(a);
    }
    connect(&sim_, &Simulation::stateChanged, this, &RunPage::updateExportActions);
    connect(&sim_, &Simulation::runReset, this, &RunPage::updateExportActions);
    // A lesson's verdicts are a report of their own.
    connect(lessonPanel_, &LessonPanel::measured, this, &RunPage::updateExportActions);
    updateExportActions();

    savePictureAction_ = new QAction(tr("Save &picture of this view…"), this);
    savePictureAction_->setObjectName(QStringLiteral("savePictureAction"));
    savePictureAction_->setStatusTip(tr("Save the view in front as it is on screen, as PNG or SVG, for a slide"));
    savePictureAction_->setEnabled(false);
    connect(savePictureAction_, &QAction::triggered, this, &RunPage::saveViewPictureAs);
}

QString RunPage::exportWhat(Export kind)
{
    return exportText(kind).what;
}

QString RunPage::exportFileName(Export kind) const
{
    return sim_.fileStem() + exportText(kind).fileEnd;
}

QString RunPage::exportUnavailable(Export kind) const
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

void RunPage::updateExportActions()
{
    // What each file holds while it can be saved; why not while it cannot.
    for (const auto& [kind, a] : exportActions_) {
        const QString why = exportUnavailable(kind);
        a->setEnabled(why.isEmpty());
        a->setToolTip(why.isEmpty() ? exportText(kind).meaning : why);
        a->setStatusTip(a->toolTip());
    }
}

SaveResult RunPage::exportTo(Export kind, const QString& path, QString* error)
{
    if (const QString why = exportUnavailable(kind); !why.isEmpty()) {
        if (error)
            *error = why;
        return SaveResult::Failed;
    }
    return ui::saveFile(
        &window_, path,
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

void RunPage::exportAs(Export kind)
{
    const QString title = tr("Export %1").arg(exportWhat(kind));
    const QString path = askSavePath(&window_, title, exportFileName(kind), exportText(kind).filter);
    if (path.isEmpty())
        return;
    QString error;
    const bool playing = sim_.state() == Simulation::State::Running;
    switch (exportTo(kind, path, &error)) {
    case SaveResult::Saved:
        window_.statusBar()->showMessage(
            (playing && sim_.state() == Simulation::State::Paused
                    ? tr("Saved %1 to %2. The run was paused so that its figures held still: press Space to go on.")
                    : tr("Saved %1 to %2."))
                .arg(exportWhat(kind), QDir::toNativeSeparators(path)),
            10000);
        break;
    case SaveResult::Failed:
        showSaveFailure(&window_, title, exportWhat(kind), path, error);
        break;
    case SaveResult::Declined:
        break;
    }
}

SaveResult RunPage::saveViewPicture(const QString& path, QString* error)
{
    QWidget* view = shown_ ? currentView() : nullptr;
    if (!view) {
        if (error)
            *error = tr("no view is shown: open an experiment or a lesson first");
        return SaveResult::Failed;
    }
    return ui::saveFile(
        &window_, path, [view](const QString& to, QString* why) { return saveWidgetPicture(view, to, why); }, error);
}

QString RunPage::viewPictureFileName() const
{
    // Named by its tab, as the student knows it: "..._hash-table.png".
    return sim_.fileStem() + QLatin1Char('_') + fileNameStem(views_->tabText(views_->currentIndex()))
        + QStringLiteral(".png");
}

void RunPage::saveViewPictureAs()
{
    if (!shown_)
        return;
    const QString path = askSavePath(&window_, tr("Save picture of this view"), viewPictureFileName(),
        tr("PNG image, as on screen (*.png);;SVG drawing, for slides and print (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    switch (saveViewPicture(path, &error)) {
    case SaveResult::Saved:
        window_.statusBar()->showMessage(tr("Saved the picture to %1").arg(QDir::toNativeSeparators(path)), 8000);
        break;
    case SaveResult::Failed:
        showSaveFailure(&window_, tr("Save picture of this view"), tr("the picture"), path, error);
        break;
    case SaveResult::Declined:
        break;
    }
}

} // namespace pcl::ui
