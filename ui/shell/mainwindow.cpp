#include "shell/mainwindow.h"

#include "charts/chartsview.h"
#include "compare/comparewindow.h"
#include "kit/colorschememenu.h"
#include "kit/indexkindmessage.h"
#include "lesson/lesson_library.h"
#include "lessons/lessonpanel.h"
#include "lessons/proberesultsview.h"
#include "locks/lockview.h"
#include "log/eventlogview.h"
#include "run/parameterspanel.h"
#include "shell/aboutdialog.h"
#include "shell/appicon.h"
#include "shell/dockforward.h"
#include "shell/keyrouting.h"
#include "shell/resources.h"
#include "shell/runtoolbar.h"
#include "shell/scenariolibrary.h"
#include "shell/stepcaption.h"
#include "shell/welcomepage.h"
#include "shell/zoom.h"
#include "sim/debugfs.h"
#include "views/hash/hashview.h"
#include "views/pagestate/pagestateview.h"
#include "views/pagetable/pagetableview.h"
#include "views/radix/radixtreeview.h"
#include "views/skiplist/skiplistview.h"
#include "views/timeline/timelineview.h"
#include "views/tornpte/tornpteview.h"

#include <QAction>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace pcl::ui {

namespace {
const QString kGeometryKey = QStringLiteral("MainWindow/geometry");
const QString kStateKey = QStringLiteral("MainWindow/state");
const QString kUserGuide = QStringLiteral(":/pagecache-lab/user-guide.md");

/// The guide's browser: its screenshots come from the resources, scaled to
/// the page (they are taken at 1280 pixels).
class GuideBrowser : public QTextBrowser {
public:
    static constexpr int kImageWidth = 760;
    QVariant loadResource(int type, const QUrl& name) override
    {
        if (type == QTextDocument::ImageResource) {
            const QImage image(QStringLiteral(":/pagecache-lab/") + name.path());
            if (!image.isNull())
                return image.width() > kImageWidth ? image.scaledToWidth(kImageWidth, Qt::SmoothTransformation) : image;
        }
        return QTextBrowser::loadResource(type, name);
    }
};
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , stack_(new QStackedWidget)
    , galleryPage_(new QScrollArea)
    , welcome_(new WelcomePage(ScenarioLibrary::presets()))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(applicationIcon());
    setDockNestingEnabled(true);

    // The gallery scrolls rather than clips when the window is small.
    galleryPage_->setObjectName(QStringLiteral("welcomeScrollArea"));
    galleryPage_->setFrameShape(QFrame::NoFrame);
    galleryPage_->setWidgetResizable(true);
    galleryPage_->setWidget(welcome_);
    stack_->addWidget(galleryPage_);
    setCentralWidget(stack_);
    connect(welcome_, &WelcomePage::runRequested, this, [this](const QString& id) {
        QString error;
        if (!openScenario(id, &error))
            QMessageBox::warning(this, tr("Open scenario"), error);
    });
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openFile);
    connect(welcome_, &WelcomePage::lessonRequested, this, [this](const QString& name) {
        QString error;
        if (!openLesson(name, &error))
            QMessageBox::warning(this, tr("Open lesson"), error);
    });
    try {
        welcome_->setLessons(bundled_lessons());
    } catch (const std::exception& e) {
        // A bundled lesson that does not read is a build defect.
        qWarning("pagecache-lab: %s", e.what());
    }

    toolBar_ = new RunToolBar(sim_, this);
    addToolBar(Qt::TopToolBarArea, toolBar_);
    createRunPage();
    createPresentation();
    createMenus();
    connect(&sim_, &Simulation::stateChanged, this, &MainWindow::updateTitle);
    connect(&sim_, &Simulation::stateChanged, this, [this](Simulation::State s) {
        if (s == Simulation::State::Failed)
            statusBar()->showMessage(tr("The run failed: %1").arg(sim_.error()));
    });

    welcome_->setRecentFiles(ScenarioLibrary::recentFiles());
    showGallery();
    resize(defaultSize());
}

MainWindow::~MainWindow()
{
    // The views, docks and toolbar watch sim_, and some let go of it in
    // their destructors: they go first, while it is still there (members
    // are destroyed before QWidget deletes the children).
    // The application's font goes back to its size: another window (a
    // test's next) starts from the desktop's, and the saved scale stays.
    zoom_->setRemember(false);
    zoom_->reset();
    qDeleteAll(findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly));
}

QSize MainWindow::defaultSize()
{
    // 1280 x 720 is a projector's; never more than 90% of the screen. The
    // offscreen platform's screen (tests, headless screenshots) is a
    // made-up size.
    QSize size(1280, 720);
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (screen && QGuiApplication::platformName() != QLatin1String("offscreen"))
        size = size.boundedTo(screen->availableSize() * 0.9);
    return size;
}

void MainWindow::createRunPage()
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
        addAction(go);
    }
    runPage_ = views_;
    stack_->addWidget(runPage_);
    traceNote_ = new QLabel;
    traceNote_->setObjectName(QStringLiteral("traceNote"));
    traceNote_->hide();
    statusBar()->addPermanentWidget(traceNote_);
    connect(&sim_, &Simulation::runReset, this, &MainWindow::updateTraceNote);
    connect(&sim_, &Simulation::runReset, this, &MainWindow::updateViewTabs);

    auto* charts = new ChartsView(sim_);
    auto* parameters = new ParametersPanel(sim_);
    auto* locks = new LockView(sim_);
    auto* log = new EventLogView(sim_);
    QDockWidget* chartsDock = addDock(charts, tr("Charts"), QStringLiteral("chartsDock"), Qt::RightDockWidgetArea);
    chartsDock_ = chartsDock;
    QDockWidget* parametersDock
        = addDock(parameters, tr("Parameters"), QStringLiteral("parametersDock"), Qt::RightDockWidgetArea);
    QDockWidget* locksDock = addDock(locks, tr("Locks"), QStringLiteral("locksDock"), Qt::BottomDockWidgetArea);
    QDockWidget* logDock = addDock(log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    // A lock selected in the table is outlined on the timeline and is what
    // the log shows.
    connect(locks, &LockView::lockSelected, timeline, &TimelineView::setHighlightedLock);
    connect(locks, &LockView::lockSelected, log, &EventLogView::setFilterText);
    tabifyDockWidget(chartsDock, parametersDock);
    tabifyDockWidget(locksDock, logDock);

    // The lesson, on the left of the views, in a dock of its own so that a
    // step bringing the charts or the lock table forward never hides it;
    // shown when a lesson is open. What a step brings forward and outlines
    // is the views' own selection.
    lessonPanel_ = new LessonPanel(sim_);
    lessonDock_ = addDock(lessonPanel_, tr("Lesson"), QStringLiteral("lessonDock"), Qt::LeftDockWidgetArea);
    lessonDock_->hide();
    // Its verdict table, the width of the window, beside the lock table.
    verdictDock_
        = addDock(lessonPanel_->verdictTable(), tr("Verdict"), QStringLiteral("verdictDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(locksDock, verdictDock_);
    verdictDock_->hide();
    // Its measurements of the structures themselves, as wide as the window
    // too: one column per measurement, to compare across.
    measurementsDock_ = addDock(
        lessonPanel_->probeResults(), tr("Measurements"), QStringLiteral("measurementsDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(locksDock, measurementsDock_);
    measurementsDock_->hide();
    connect(lessonPanel_, &LessonPanel::measured, this, [this] {
        bringForward(verdictDock_);
        // Room for every claim's row, not the lock table's few lines.
        resizeDocks({ verdictDock_ }, { height() / 2 }, Qt::Vertical);
    });
    connect(lessonPanel_, &LessonPanel::viewRequested, this, [this, chartsDock, locksDock](const QString& view) {
        // A dock's step shows the CPUs in the centre, whatever an earlier
        // step or run left there: who holds, who waits.
        if (view == QLatin1String("charts")) {
            bringForward(chartsDock);
            showView(QStringLiteral("cpus"));
        } else if (view == QLatin1String("locks")) {
            bringForward(locksDock);
            showView(QStringLiteral("cpus"));
        } else if (view == QLatin1String("probe")) {
            // The measurements are what the step is about: room for them.
            bringForward(measurementsDock_);
            resizeDocks({ measurementsDock_ }, { height() / 2 }, Qt::Vertical);
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
            for (const QString& s : settings) {
                if (s.startsWith(QLatin1String("method=")))
                    method = s.section(QLatin1Char('='), 1);
                else if (s.startsWith(QLatin1String("interleaving=")))
                    interleaving = s.section(QLatin1Char('='), 1);
            }
            views_->setTabVisible(views_->indexOf(tornPte_), true);
            bringForward(measurementsDock_);
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
    chartsDock->raise();
    locksDock->raise();
    resizeDocks({ chartsDock }, { 520 }, Qt::Horizontal);
    resizeDocks({ locksDock }, { 230 }, Qt::Vertical);
}

QStringList MainWindow::viewNames() const
{
    QStringList names;
    for (int i = 0; i < views_->count(); ++i)
        names << views_->widget(i)->objectName();
    return names;
}

int MainWindow::tabOf(const QString& name) const
{
    for (int i = 0; i < views_->count(); ++i)
        if (views_->widget(i)->objectName() == name)
            return i;
    return -1;
}

bool MainWindow::showView(const QString& name)
{
    const int i = tabOf(name);
    if (i < 0)
        return false;
    views_->setCurrentIndex(i);
    return true;
}

bool MainWindow::viewEnabled(const QString& name) const
{
    const int i = tabOf(name);
    return i >= 0 && views_->isTabEnabled(i);
}

QString MainWindow::tabToolTip(const QString& name) const
{
    const int i = tabOf(name);
    return i >= 0 ? views_->tabToolTip(i) : QString();
}

void MainWindow::updateViewTabs()
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

QWidget* MainWindow::currentView() const
{
    return views_->currentWidget();
}

QDockWidget* MainWindow::addDock(
    QWidget* view, const QString& title, const QString& objectName, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(view);
    dock->setFeatures(
        QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetFloatable);
    addDockWidget(area, dock);
    docks_.append(dock);
    if (viewMenu_)
        viewMenu_->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    galleryAction_ = file->addAction(tr("&Experiments"));
    galleryAction_->setObjectName(QStringLiteral("galleryAction"));
    galleryAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    galleryAction_->setStatusTip(tr("Back to the gallery of experiments"));
    connect(galleryAction_, &QAction::triggered, this, &MainWindow::showGallery);

    openAction_ = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open scenario…"));
    openAction_->setObjectName(QStringLiteral("openAction"));
    openAction_->setShortcut(QKeySequence::Open);
    connect(openAction_, &QAction::triggered, this, &MainWindow::openFile);

    recentMenu_ = file->addMenu(tr("Open &recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    updateRecentMenu();

    QAction* compare = file->addAction(tr("&Compare two scenarios…"));
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    compare->setStatusTip(tr("Run two scenarios side by side, charts overlaid, with a difference summary"));
    connect(compare, &QAction::triggered, this, &MainWindow::showCompare);

    saveAction_ = file->addAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("&Save scenario as…"));
    saveAction_->setObjectName(QStringLiteral("saveAction"));
    saveAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveAction_, &QAction::triggered, this, &MainWindow::saveFile);

    // Everything a report or a later look needs, in the forms the command
    // line writes, so that a file saved here and one `pagecache-lab-cli
    // run --out` wrote read alike.
    QMenu* exports = file->addMenu(QIcon::fromTheme(QStringLiteral("document-export")), tr("E&xport"));
    exports->setObjectName(QStringLiteral("exportMenu"));
    exports->setToolTipsVisible(true);
    const struct {
        Export kind;
        QString title;
        const char* name;
    } kExportActions[] = {
        { Export::ReportHtml, tr("Report (&HTML)…"), "exportReportHtmlAction" },
        { Export::ReportPdf, tr("Report (&PDF)…"), "exportReportPdfAction" },
        { Export::Result, tr("Run &result (JSON)…"), "exportResultAction" },
        { Export::TimeSeries, tr("&Time series (CSV)…"), "exportTimeSeriesAction" },
        { Export::Locks, tr("&Lock table (CSV)…"), "exportLocksAction" },
        { Export::Trace, tr("T&race for Perfetto (JSON)…"), "exportTraceAction" },
        { Export::Scenario, tr("&Scenario…"), "exportScenarioAction" },
    };
    for (const auto& [kind, title, name] : kExportActions) {
        if (kind == Export::Result || kind == Export::Trace || kind == Export::Scenario)
            exports->addSeparator();
        QAction* a = exports->addAction(title);
        a->setObjectName(QLatin1String(name));
        connect(a, &QAction::triggered, this, [this, kind = kind] { exportAs(kind); });
        exportActions_[kind] = a;
    }
    connect(&sim_, &Simulation::stateChanged, this, &MainWindow::updateExportActions);
    connect(&sim_, &Simulation::runReset, this, &MainWindow::updateExportActions);
    // A lesson's verdicts are a report of their own.
    connect(lessonPanel_, &LessonPanel::measured, this, &MainWindow::updateExportActions);
    updateExportActions();

    file->addSeparator();
    quitAction_ = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"));
    quitAction_->setObjectName(QStringLiteral("quitAction"));
    // Ctrl+Q on every platform (QKeySequence::Quit is empty on Windows).
    quitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quitAction_->setStatusTip(tr("Close the window and quit"));
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    run->addAction(toolBar_->playAction());
    run->addAction(toolBar_->stepAction());
    run->addAction(toolBar_->resetAction());

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->setObjectName(QStringLiteral("viewMenu"));
    savePictureAction_ = viewMenu_->addAction(tr("Save &picture of this view…"));
    savePictureAction_->setObjectName(QStringLiteral("savePictureAction"));
    savePictureAction_->setStatusTip(tr("Save the view in front as it is on screen, as PNG or SVG, for a slide"));
    connect(savePictureAction_, &QAction::triggered, this, &MainWindow::saveViewPictureAs);
    addColorSchemeMenu(viewMenu_);
    viewMenu_->addSeparator();
    addPresentationActions(viewMenu_);
    viewMenu_->addSeparator();
    for (QDockWidget* dock : docks_)
        viewMenu_->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction* guide = help->addAction(tr("&User guide"));
    guide->setObjectName(QStringLiteral("userGuideAction"));
    guide->setShortcut(QKeySequence::HelpContents);
    connect(guide, &QAction::triggered, this, &MainWindow::showUserGuide);
    aboutAction_ = help->addAction(applicationIcon(), tr("&About Page Cache Lab"));
    aboutAction_->setObjectName(QStringLiteral("aboutAction"));
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = ScenarioLibrary::recentFiles();
    for (const QString& path : recent) {
        QAction* a = recentMenu_->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            QString error;
            if (!openScenario(path, &error))
                QMessageBox::warning(this, tr("Open scenario"), error);
        });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
    welcome_->setRecentFiles(recent);
}

void MainWindow::updateTraceNote()
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

void MainWindow::updateTitle()
{
    if (showingRun() && lessonPanel_->hasLesson()) {
        // The lesson's, not the scenario's its step runs: a step that
        // measures the structures runs no scenario at all.
        const QString lesson = QString::fromStdString(lessonPanel_->lesson().title);
        const QString step
            = tr("step %1 of %2").arg(lessonPanel_->stepIndex() + 1).arg(lessonPanel_->lesson().steps.size());
        setWindowTitle(lessonPanel_->probeStep() || sim_.state() == Simulation::State::Empty
                ? tr("%1 — %2 — Page Cache Lab").arg(lesson, step)
                : tr("%1 — %2 — %3 — Page Cache Lab").arg(lesson, step, Simulation::stateName(sim_.state())));
    } else if (showingRun() && sim_.state() != Simulation::State::Empty) {
        const QString title = QString::fromStdString(sim_.scenario().title);
        setWindowTitle(
            tr("%1 — %2 — Page Cache Lab")
                .arg(title.isEmpty() ? tr("Untitled scenario") : title, Simulation::stateName(sim_.state())));
    } else {
        setWindowTitle(tr("Page Cache Lab"));
    }
}

bool MainWindow::openScenario(const QString& presetOrPath, QString* error)
{
    try {
        return openScenario(ScenarioLibrary::load(presetOrPath), error);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::openScenario(const ScenarioEntry& entry, QString* error)
{
    try {
        sim_.setScenario(entry.scenario);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // Its files are named after the preset or the file it came from.
    sim_.setFileStem(fileNameStem(QFileInfo(entry.id).fileName().section(QStringLiteral(".json"), 0, 0)));
    lessonPanel_->clearLesson();
    updateCaption();
    lessonDock_->hide();
    verdictDock_->hide();
    measurementsDock_->hide();
    if (!entry.path.startsWith(QLatin1Char(':'))) {
        ScenarioLibrary::addRecentFile(entry.path);
        updateRecentMenu();
    }
    showRun();
    return true;
}

bool MainWindow::openLesson(const QString& nameOrPath, QString* error)
{
    try {
        lessonPanel_->setLesson(find_lesson(nameOrPath.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    sim_.setFileStem(fileNameStem(QString::fromStdString(lessonPanel_->lesson().name)));
    // A first step that measures the structures sets no run of its own: the
    // run of what was open before starts again, its figures and charts
    // empty, so that nothing of it passes for the lesson's.
    if (lessonPanel_->probeStep())
        sim_.reset();
    showRun();
    lessonDock_->show();
    lessonDock_->raise();
    // The lesson, the views and the charts side by side on a projector's
    // 1280 pixels: the charts give up some of their width to the views.
    dockZoom_->resize({ lessonDock_, chartsDock_ }, { 380, 400 });
    // The step asked for its view before the run page was shown.
    lessonPanel_->resetStep();
    return true;
}

bool MainWindow::showingRun() const
{
    return stack_->currentWidget() == runPage_;
}

void MainWindow::showGallery()
{
    if (showingRun())
        runDockState_ = dockZoom_->current();
    sim_.pause();
    stack_->setCurrentWidget(galleryPage_);
    toolBar_->hide();
    captionBar_->hide();
    for (QDockWidget* dock : docks_)
        dock->hide();
    // The window's minimum size follows what is shown now (the layout sets
    // it when it activates), so a restored or scripted size is not held to
    // the docks' minimum.
    layout()->activate();
    saveAction_->setEnabled(sim_.state() != Simulation::State::Empty);
    savePictureAction_->setEnabled(false);
    updateTitle();
}

void MainWindow::showRun()
{
    stack_->setCurrentWidget(runPage_);
    toolBar_->show();
    if (runDockState_.state.isEmpty()) {
        // First shown: the docks as createRunPage sized them, at 100%.
        for (QDockWidget* dock : docks_)
            dock->show();
        runDockState_ = dockZoom_->current();
        runDockState_.scale = 1.0;
    }
    dockZoom_->restore(runDockState_);
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
    saveAction_->setEnabled(true);
    savePictureAction_->setEnabled(true);
    updateCaption();
}

void MainWindow::openFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open scenario"), QString(), tr("Scenario files (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openScenario(path, &error))
        QMessageBox::warning(this, tr("Open scenario"), error);
}

void MainWindow::saveFile()
{
    if (sim_.state() == Simulation::State::Empty)
        return;
    const QString path
        = askSavePath(this, tr("Save scenario"), exportFileName(Export::Scenario), tr("Scenario files (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    switch (exportTo(Export::Scenario, path, &error)) {
    case SaveResult::Saved:
        ScenarioLibrary::addRecentFile(path);
        updateRecentMenu();
        statusBar()->showMessage(tr("Saved the scenario to %1").arg(QDir::toNativeSeparators(path)), 5000);
        break;
    case SaveResult::Failed:
        showSaveFailure(this, tr("Save scenario"), exportWhat(Export::Scenario), path, error);
        break;
    case SaveResult::Declined:
        break;
    }
}

CompareWindow* MainWindow::showCompare()
{
    // The radix-tree pagecache thread's pair to start with (the global hash lock against a radix
    // tree per file); the window's pickers change either side.
    auto* window = new CompareWindow;
    try {
        window->setScenarios(ScenarioLibrary::load(QStringLiteral("2002-global-hash-lock")),
            ScenarioLibrary::load(QStringLiteral("2002-radix-tree-per-file")));
    } catch (const std::exception& e) {
        statusBar()->showMessage(QString::fromStdString(e.what()), 8000);
    }
    sim_.pause();
    window->show();
    return window;
}

void MainWindow::showUserGuide()
{
    registerResources();
    QFile file(kUserGuide);
    if (!file.open(QIODevice::ReadOnly))
        return;
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("userGuide"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Page Cache Lab — User guide"));
    auto* browser = new GuideBrowser;
    browser->setObjectName(QStringLiteral("userGuideText"));
    browser->setOpenExternalLinks(true);
    browser->setMarkdown(QString::fromUtf8(file.readAll()));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    dialog->resize(820, 640);
    dialog->show();
}

void MainWindow::showAbout()
{
    if (!about_)
        about_ = new AboutDialog(this);
    about_->open();
    about_->raise();
    about_->activateWindow();
}

bool MainWindow::restoreSettings()
{
    zoom_->restore();
    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        return false;
    // Saved with the zoom just restored.
    runDockState_ = { settings.value(kStateKey).toByteArray(), zoom_->scale(), {} };
    if (showingRun())
        dockZoom_->restore(runDockState_);
    return true;
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, showingRun() ? saveState() : runDockState_.state);
}

void MainWindow::setRememberGeometry(bool remember)
{
    rememberGeometry_ = remember;
    zoom_->setRemember(remember);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (rememberGeometry_)
        saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace pcl::ui
