#include "lessons/lessonpanel.h"

#include "kit/colormix.h"
#include "kit/colors.h"
#include "kit/savefile.h"
#include "lesson/lesson_library.h"
#include "lesson/lesson_pause.h"
#include "lesson/modelled_claims.h"
#include "lessons/proberesultsview.h"
#include "lib/report.h"
#include "run/simulation.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace pcl::ui {

namespace {

QLabel* wrapped(QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    return l;
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The step's condition in words: "the tree reaches height 2".
QString conditionText(const LessonPause& p)
{
    switch (p.kind) {
    case LessonPause::Kind::None:
        return {};
    case LessonPause::Kind::TreeHeight:
        return LessonPanel::tr("the tree reaches height %1").arg(p.count);
    case LessonPause::Kind::LockContentions:
        return LessonPanel::tr("%1 has been contended %2 times").arg(q(p.lock)).arg(p.count);
    case LessonPause::Kind::ReadaheadWasted:
        return p.count == 1 ? LessonPanel::tr("the first read-ahead page is evicted unused")
                            : LessonPanel::tr("%1 read-ahead pages have been evicted unused").arg(p.count);
    case LessonPause::Kind::RunEnds:
        return LessonPanel::tr("the run ends");
    }
    return {};
}

/// The step's speed in words: "40 operations a second on each CPU, every
/// lock held 5 ms longer so that the waiting shows".
QString paceText(const LessonStep& s)
{
    QString speed = s.ops_per_second > 0
        ? LessonPanel::tr("%1 operations a second on each CPU").arg(significant(s.ops_per_second).c_str())
        : LessonPanel::tr("Unpaced: the machine's full speed, as the measurement runs");
    if (s.hold_stretch_ns > 0)
        speed += LessonPanel::tr(", every lock held %1 ms longer so that the waiting shows")
                     .arg(significant(double(s.hold_stretch_ns) / 1e6).c_str());
    return speed;
}

/// When the run pauses, in words: "5 s after the tree reaches height 2".
QString pauseText(const LessonPause& p)
{
    if (p.kind == LessonPause::Kind::None)
        return {};
    if (p.kind == LessonPause::Kind::RunEnds || p.shown_seconds <= 0)
        return LessonPanel::tr("when %1").arg(conditionText(p));
    return LessonPanel::tr("%1 s after %2").arg(QString::fromStdString(significant(p.shown_seconds)), conditionText(p));
}

} // namespace

LessonPanel::LessonPanel(Simulation& sim, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
    , title_(wrapped(this))
    , source_(wrapped(this))
    , question_(wrapped(this))
    , arguments_(new QLabel(this))
    , stepTitle_(wrapped(this))
    , stepText_(wrapped(this))
    , speed_(wrapped(this))
    , back_(new QPushButton(tr("Back"), this))
    , reset_(new QPushButton(tr("Reset step"), this))
    , next_(new QPushButton(tr("Next"), this))
    , measure_(new QPushButton(tr("Measure the claims"), this))
    , save_(new QPushButton(tr("Save the verdicts..."), this))
    , fullForm_(new QCheckBox(tr("Full length (minutes, not seconds)"), this))
    , measureNote_(wrapped(this))
    , figuresTitle_(wrapped(this))
    , stepFigures_(new StepFiguresTable(this))
    , probeResults_(new ProbeResultsView)
    , verdictView_(new QSplitter(Qt::Horizontal))
    , verdictTable_(new QTableWidget(0, 4, verdictView_))
    , tableChart_(new LessonTableChart(verdictView_))
{
    setObjectName(QStringLiteral("lessonPanel"));
    restyle();
    arguments_->setWordWrap(true);
    arguments_->setTextFormat(Qt::RichText);
    back_->setObjectName(QStringLiteral("lessonBack"));
    reset_->setObjectName(QStringLiteral("lessonReset"));
    next_->setObjectName(QStringLiteral("lessonNext"));
    measure_->setObjectName(QStringLiteral("lessonMeasure"));
    save_->setObjectName(QStringLiteral("lessonSaveVerdicts"));
    save_->setToolTip(tr("Save the verdict table with the figures behind it, as JSON or as CSV for a spreadsheet"));
    save_->setEnabled(false);

    verdictTable_->setObjectName(QStringLiteral("verdictTable"));
    verdictTable_->setHorizontalHeaderLabels({ tr("Claim"), tr("In the thread"), tr("Ours"), tr("Verdict") });
    verdictTable_->verticalHeader()->hide();
    verdictTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    verdictTable_->setWordWrap(true);
    verdictTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // A claim's words wrap: its row grows or shrinks with the table's width
    // and the window's zoom, once the columns have taken their new widths.
    verdictTable_->viewport()->installEventFilter(this);
    verdictView_->setObjectName(QStringLiteral("verdictView"));
    verdictView_->addWidget(verdictTable_);
    verdictView_->addWidget(tableChart_);
    verdictView_->setChildrenCollapsible(false);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addWidget(reset_);
    buttons->addStretch(1);
    buttons->addWidget(next_);
    // The lesson scrolls when the dock is short; the verdict table is the
    // window's to place (it wants the width of the window, not of a dock).
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    // The step and its buttons first, where a teacher looks; the question
    // and the arguments below them.
    layout->addWidget(title_);
    layout->addWidget(stepTitle_);
    layout->addWidget(stepText_);
    layout->addWidget(speed_);
    layout->addLayout(buttons);
    // What each step's run has shown so far, to compare across steps.
    layout->addSpacing(6);
    figuresTitle_->setText(tr("What each step's run showed:"));
    layout->addWidget(figuresTitle_);
    layout->addWidget(stepFigures_);
    figuresTitle_->hide();
    stepFigures_->hide();
    layout->addSpacing(6);
    auto* measureRow = new QHBoxLayout;
    measureRow->addWidget(measure_);
    measureRow->addWidget(save_);
    layout->addLayout(measureRow);
    layout->addWidget(fullForm_);
    layout->addWidget(measureNote_);
    layout->addSpacing(10);
    layout->addWidget(question_);
    layout->addWidget(arguments_);
    layout->addWidget(source_);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
    connect(reset_, &QPushButton::clicked, this, &LessonPanel::resetStep);
    connect(measure_, &QPushButton::clicked, this, &LessonPanel::measure);
    connect(save_, &QPushButton::clicked, this, &LessonPanel::saveVerdictsAs);
    connect(&sim_, &Simulation::ticked, this, &LessonPanel::checkPause);
    connect(&sim_, &Simulation::ticked, this, [this] {
        if (++ticks_ % Simulation::kTicksPerSecond == 0)
            recordFigures();
    });
    // A pause (the step's own, or Space) and the run's end show the figures it stopped at.
    connect(&sim_, &Simulation::stateChanged, this, &LessonPanel::recordFigures);
    // Played on after the step's own pause: the note that it paused is over.
    connect(&sim_, &Simulation::stateChanged, this, [this](Simulation::State state) {
        if (lesson_ && pausedByStep_ && state == Simulation::State::Running)
            speed_->setText(tr("%1; it paused once, as the step meant, and now runs until you pause it.")
                                .arg(paceText(lesson_->steps[std::size_t(step_)])));
    });
}

LessonPanel::~LessonPanel()
{
    // The measurement reads nothing of the panel but posts its result to
    // it: wait for it rather than leave it posting to a destroyed object.
    if (measurer_)
        measurer_->wait();
    if (prober_)
        prober_->wait();
    // The table lives wherever the window put it, unless nowhere.
    if (verdictView_ && !verdictView_->parent())
        delete verdictView_;
    if (probeResults_ && !probeResults_->parent())
        delete probeResults_;
}

void LessonPanel::setLesson(const Lesson& lesson)
{
    lesson_ = lesson;
    stepRuns_ = false;
    stepFigures_->clearSteps();
    figuresTitle_->hide();
    stepFigures_->hide();
    result_.reset();
    save_->setEnabled(false);
    verdictTable_->setRowCount(0);
    tableChart_->setTables({});
    probeResults_->setLesson(lesson);
    measureNote_->clear();
    title_->setText(q(lesson.title));
    source_->setText(tr("From the %1 thread: %2").arg(q(lesson.thread), q(lesson.citation)));
    question_->setText(q(lesson.question));
    QString who;
    for (const LessonArgument& a : lesson.arguments) {
        const QString said = q(a.said).toHtmlEscaped();
        who += QStringLiteral("<p><b>%1</b>: %2</p>")
                   .arg(q(a.who).toHtmlEscaped(), a.quoted ? QStringLiteral("\u201c%1\u201d").arg(said) : said);
    }
    arguments_->setText(who);
    goToStep(0);
}

void LessonPanel::clearLesson()
{
    lesson_.reset();
    stepRuns_ = false;
    step_ = 0;
    pausedByStep_ = false;
    // The scenario opened instead is not the lesson's: nothing of the last
    // step stays outlined on it.
    showHighlight(LessonHighlight {});
}

void LessonPanel::goToStep(int index)
{
    if (!lesson_)
        return;
    // The step left keeps what its run showed last.
    recordFigures();
    step_ = std::clamp(index, 0, int(lesson_->steps.size()) - 1);
    showStep();
}

void LessonPanel::next()
{
    if (hasNext())
        goToStep(step_ + 1);
}

void LessonPanel::back()
{
    if (hasBack())
        goToStep(step_ - 1);
}

QWidget* LessonPanel::verdictView() const
{
    return verdictView_;
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (verdictTable_ && watched == verdictTable_->viewport() && event->type() == QEvent::Resize)
        QTimer::singleShot(0, verdictTable_, [table = QPointer<QTableWidget>(verdictTable_)] {
            if (table)
                table->resizeRowsToContents();
        });
    return QWidget::eventFilter(watched, event);
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        restyle();
}

void LessonPanel::restyle()
{
    // Room for a step's text beside the views at 1280 x 720, as wide again
    // as the text when the window is zoomed; no wider, so that zoomed to
    // 300% on a 1920-pixel projector the charts beside it keep room for
    // their titles (its text wraps, and the caption has it in large print).
    setMinimumWidth(fontMetrics().averageCharWidth() * 30);
    QFont big = font();
    if (big.pointSizeF() > 0)
        big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    title_->setFont(big);
    QFont bold = font();
    bold.setBold(true);
    stepTitle_->setFont(bold);
}

void LessonPanel::resetStep()
{
    goToStep(step_);
}

QString LessonPanel::stepText() const
{
    return stepTitle_->text() + QLatin1Char('\n') + stepText_->text();
}

QString LessonPanel::stepTitle() const
{
    return stepTitle_->text();
}

QString LessonPanel::stepBody() const
{
    return stepText_->text();
}

QString LessonPanel::stepView() const
{
    return lesson_ ? q(lesson_->steps[std::size_t(step_)].view) : QString();
}

bool LessonPanel::probeStep() const
{
    if (!lesson_)
        return false;
    const LessonRun* run = lesson_->find_run(lesson_->steps[std::size_t(step_)].run);
    return run && run->is_probe();
}

void LessonPanel::showStep()
{
    stepRuns_ = false;
    setUpStep();
    Q_EMIT stepShown(step_);
}

void LessonPanel::setUpStep()
{
    const LessonStep& s = lesson_->steps[std::size_t(step_)];
    const int n = int(lesson_->steps.size());
    stepTitle_->setText(tr("Step %1 of %2: %3").arg(step_ + 1).arg(n).arg(q(s.title)));
    stepText_->setText(q(s.text));
    back_->setEnabled(step_ > 0);
    next_->setEnabled(step_ + 1 < n);
    pausedByStep_ = false;
    pauseWatch_ = PauseWatch(s.pause);
    ++probeGeneration_;
    const LessonRun& run = *lesson_->find_run(s.run);
    probeResults_->setCurrent(run.is_probe() ? run.name : std::string());
    if (run.is_probe()) {
        // A probe step outlines nothing on the machine's views.
        showHighlight(LessonHighlight {});
        probeStep(run);
        return;
    }

    QString speed = paceText(s);
    if (s.pause.kind != LessonPause::Kind::None)
        speed += tr("; it pauses by itself %1").arg(pauseText(s.pause));
    speed_->setText(speed + QLatin1Char('.'));

    // The step's run: its scenario and overrides, at the step's speed.
    std::vector<std::string> set = s.set;
    set.push_back("pacing.ops_per_second=" + std::to_string(s.ops_per_second));
    set.push_back("pacing.hold_stretch_ns=" + std::to_string(s.hold_stretch_ns));
    try {
        sim_.setScenario(lesson_scenario(
            *lesson_->find_run(s.run), set, bundled_scenario_text, "steps[" + std::to_string(step_) + "]"));
    } catch (const std::exception& e) {
        speed_->setText(tr("This step cannot run: %1").arg(QString::fromUtf8(e.what())));
        showHighlight(LessonHighlight {});
        return;
    }
    stepRuns_ = true;
    ticks_ = 0;
    Q_EMIT viewRequested(q(s.view));
    showHighlight(s.highlight);
}

void LessonPanel::showHighlight(const LessonHighlight& h)
{
    using Kind = LessonHighlight::Kind;
    Q_EMIT lockHighlighted(h.kind == Kind::Lock ? q(h.lock) : QString());
    if (h.kind == Kind::File)
        Q_EMIT fileHighlighted(FileId(h.number));
    Q_EMIT bucketHighlighted(h.kind == Kind::Bucket ? std::optional<std::uint64_t>(h.number) : std::nullopt);
    Q_EMIT nodeHighlighted(h.kind == Kind::Node ? std::optional<pgoff_t>(pgoff_t(h.number)) : std::nullopt);
    Q_EMIT cpuHighlighted(h.kind == Kind::Cpu ? std::optional<unsigned>(unsigned(h.number)) : std::nullopt);
}

void LessonPanel::probeStep(const LessonRun& run)
{
    // A probe measures the structures themselves, not the simulated
    // machine: the machine's run waits, and the figures fill the table
    // when the probe is done. A step left before then drops its figures.
    sim_.pause();
    // A probe with a view of its own walks the run there (the torn PTE
    // read, operation by operation); the figures still fill the
    // Measurements view.
    const std::string& view = lesson_->steps[std::size_t(step_)].view;
    if (view != "probe") {
        QStringList settings;
        if (const LessonProbe* p = find_lesson_probe(run.probe)) {
            const ProbeArgs args = probe_args(*p, run.set, "run '" + run.name + "'");
            for (const auto& [name, value] : args.values())
                settings << q(name + "=" + value);
        }
        Q_EMIT probeViewRequested(q(view), settings);
    }
    Q_EMIT viewRequested(q(view));
    speed_->setText(tr("Measuring on this machine, in the quick form..."));
    const LessonProbe* probe = find_lesson_probe(run.probe);
    const unsigned generation = probeGeneration_;
    QThread* thread = QThread::create([this, run, generation] {
        std::optional<ProbeFigures> figures;
        QString error;
        try {
            figures = run_lesson_probe(run, true);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, figures, error, generation, thread = QThread::currentThread()] {
                if (prober_ == thread)
                    prober_ = nullptr;
                if (generation != probeGeneration_)
                    return;
                if (!figures) {
                    speed_->setText(tr("The measurement failed: %1").arg(error));
                    Q_EMIT probed(error);
                    return;
                }
                const LessonStep& s = lesson_->steps[std::size_t(step_)];
                if (probeResults_)
                    probeResults_->setFigures(s.run, *figures);
                speed_->setText(s.view == "probe"
                        ? tr("Measured just now on this machine, in the quick form: its figures are in the "
                             "outlined column of the Measurements view. Reset step measures again.")
                        : tr("Walk through it one operation at a time with Next and Back above the picture, or "
                             "the arrow keys. What this run counted is in the Measurements view."));
                Q_EMIT probed(QString());
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    if (probe && view == "probe")
        speed_->setText(tr("Measuring on this machine, in the quick form: %1...").arg(q(probe->meaning)));
    // An earlier step's probe may still be running: it is waited for at the
    // end, and its figures are dropped when they come.
    if (prober_)
        prober_->wait();
    prober_ = thread;
    thread->start();
}

void LessonPanel::recordFigures()
{
    if (!lesson_ || !stepRuns_)
        return;
    const std::optional<StepFigures> figures = StepFigures::of(sim_);
    if (!figures)
        return;
    stepFigures_->setFigures(step_, q(lesson_->steps[std::size_t(step_)].title), *figures);
    figuresTitle_->show();
    stepFigures_->show();
}

void LessonPanel::checkPause()
{
    if (!lesson_ || pausedByStep_ || sim_.state() != Simulation::State::Running)
        return;
    const LessonPause& p = lesson_->steps[std::size_t(step_)].pause;
    if (p.kind == LessonPause::Kind::None || p.kind == LessonPause::Kind::RunEnds || !sim_.hasRun() || !sim_.registry())
        return;
    if (!pauseWatch_.due(*sim_.debugfs(), *sim_.registry(), sim_.elapsedSeconds(), false))
        return;
    // Set first: pausing ticks the views once more, which comes back here.
    pausedByStep_ = true;
    sim_.pause();
    speed_->setText(tr("Paused %1. Look, then press Play to go on or Next for the next step.").arg(pauseText(p)));
    Q_EMIT pausedByItself(tr("Step %1: %2").arg(step_ + 1).arg(q(lesson_->steps[std::size_t(step_)].title)));
}

void LessonPanel::measure()
{
    if (!lesson_ || measurer_)
        return;
    // The measurement wants the machine to itself: the step's run waits.
    sim_.pause();
    ExperimentOptions options;
    options.quick = !fullForm_->isChecked();
    options.progress = [this](const std::string& what) {
        QMetaObject::invokeMethod(
            this, [this, what] { measureNote_->setText(tr("Measuring: %1...").arg(q(what))); }, Qt::QueuedConnection);
    };
    measure_->setEnabled(false);
    measureNote_->setText(tr("Measuring, unpaced, with the views paused..."));
    QThread* thread = QThread::create([this, lesson = *lesson_, options] {
        std::optional<ExperimentResult> result;
        QString error;
        try {
            result = run_experiment(lesson, bundled_scenario_text, options);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, result, error] {
                measurer_ = nullptr;
                measure_->setEnabled(true);
                if (result) {
                    result_ = result;
                    showVerdicts();
                } else {
                    measureNote_->setText(tr("The measurement failed: %1").arg(error));
                }
                Q_EMIT measured(error);
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    measurer_ = thread;
    thread->start();
}

bool LessonPanel::saveVerdicts(const QString& path, QString* error) const
{
    if (!result_) {
        if (error)
            *error = tr("nothing has been measured yet");
        return false;
    }
    const std::string text = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)
        ? json::write(to_json(*result_)) + "\n"
        : verdicts_csv(*result_);
    return writeFileAtomically(path, QByteArray::fromStdString(text), error);
}

void LessonPanel::saveVerdictsAs()
{
    if (!result_)
        return;
    const QString suggested = q(result_->lesson)
        + (result_->quick ? QStringLiteral("_verdicts-quick.csv") : QStringLiteral("_verdicts.csv"));
    const QString path
        = askSavePath(this, tr("Save the verdicts"), suggested, tr("CSV, for a spreadsheet (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (saveFile(
            this, path, [this](const QString& to, QString* why) { return saveVerdicts(to, why); }, &error)
        == SaveResult::Failed)
        showSaveFailure(this, tr("Save the verdicts"), tr("the verdicts"), path, error);
}

void LessonPanel::showVerdicts()
{
    const ExperimentResult& r = *result_;
    save_->setEnabled(true);
    const bool any_modelled
        = std::any_of(r.claims.begin(), r.claims.end(), [](const ClaimResult& c) { return !c.modelled.empty(); });
    measureNote_->setText(tr("Measured on this machine's %1 CPUs (%2 form). Every figure is a ratio of runs made "
                             "here side by side, or a count: never a time compared with one from the thread.")
                              .arg(r.machine_cpus)
                              .arg(r.quick ? tr("quick") : tr("full"))
        + (any_modelled ? QLatin1Char(' ')
                    + tr("A claim about the thread's own machine is measured on a model of it as well: one run of "
                         "each side, the same every time, and again with its transfer latencies halved and doubled.")
                        : QString()));
    // A row a verdict: each claim's on this machine, then on its thread's
    // machine, side by side.
    int rows = 0;
    for (const ClaimResult& c : r.claims)
        rows += 1 + (c.modelled.empty() ? 0 : 1);
    verdictTable_->setRowCount(rows);
    const QPalette& p = palette();
    int row = 0;
    const auto add = [&](const QStringList& cells, LessonVerdict verdict) {
        for (int col = 0; col < 4; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setToolTip(cells[col]);
            verdictTable_->setItem(row, col, item);
        }
        const QColor tint = verdict == LessonVerdict::Held ? colors::lockHeld()
            : verdict == LessonVerdict::DidNotHold         ? colors::lockBlocked()
                                                           : p.color(QPalette::PlaceholderText);
        verdictTable_->item(row, 3)->setBackground(colors::mix(p.color(QPalette::Base), tint, 0.35));
        ++row;
    };
    for (const ClaimResult& c : r.claims) {
        const QString claim
            = c.claim.quoted ? QStringLiteral("\u201c%1\u201d").arg(q(c.claim.statement)) : q(c.claim.statement);
        const QString thread = c.claim.thread_figure.empty() ? tr("no figure posted") : q(c.claim.thread_figure);
        // The figure, then how the repeats spread, in words: a student
        // reads "3 repeats from 1.9x to 2.6x", not a percentage of a median.
        const QString ours
            = q(c.our_figure) + (c.values.size() > 1 ? QStringLiteral("; ") + q(repeats_range(c)) : QString());
        add({ claim + QStringLiteral(" (") + q(c.claim.by) + QLatin1Char(')'), thread, ours,
                q(std::string(lesson_verdict_name(c.verdict))) + QStringLiteral(": ") + q(c.why) },
            c.verdict);
        if (c.modelled.empty())
            continue;
        const ClaimResult& m = c.modelled.front();
        add({ tr("The same claim, %1").arg(q(modelled_machine_text(m))), thread,
                q(m.our_figure) + tr("; the same in every run"),
                q(std::string(lesson_verdict_name(m.verdict))) + QStringLiteral(": ") + q(m.why) + QStringLiteral("; ")
                    + q(sensitivity_text(c)) },
            m.verdict);
    }
    verdictTable_->resizeRowsToContents();
    // The thread's tables beside ours: the verdicts keep the larger share.
    tableChart_->setTables(r.tables);
    if (!r.tables.empty())
        verdictView_->setSizes({ 3 * verdictView_->width() / 5, 2 * verdictView_->width() / 5 });
}

} // namespace pcl::ui
