#include "shell/mainwindow.h"

#include "compare/comparewindow.h"
#include "kit/colorschememenu.h"
#include "kit/resources.h"
#include "lesson/lesson_library.h"
#include "lessons/lessonpanel.h"
#include "run/runtoolbar.h"
#include "run/scenariolibrary.h"
#include "shell/aboutdialog.h"
#include "shell/appicon.h"
#include "shell/keyrouting.h"
#include "shell/stepcaption.h"
#include "shell/welcomepage.h"
#include "shell/zoom.h"

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
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

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

    runPage_ = new RunPage(*this);
    stack_->addWidget(runPage_);
    createPresentation();
    createMenus();
    connect(&simulation(), &Simulation::stateChanged, this, &MainWindow::updateTitle);

    welcome_->setRecentFiles(ScenarioLibrary::recentFiles());
    showGallery();
    resize(defaultSize());
}

MainWindow::~MainWindow()
{
    // The application's font goes back to its size: another window (a
    // test's next) starts from the desktop's, and the saved scale stays.
    zoom_->setRemember(false);
    zoom_->reset();
    // The run page first: it takes its docks and toolbar with it, and then
    // its run.
    delete runPage_;
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

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    QAction* gallery = file->addAction(tr("&Experiments"));
    gallery->setObjectName(QStringLiteral("galleryAction"));
    gallery->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    gallery->setStatusTip(tr("Back to the gallery of experiments"));
    connect(gallery, &QAction::triggered, this, &MainWindow::showGallery);

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

    // Everything a report or a later look needs, from the page that holds
    // the results: the run page's, whether it is in front or the gallery is.
    QMenu* exports = file->addMenu(QIcon::fromTheme(QStringLiteral("document-export")), tr("E&xport"));
    exports->setObjectName(QStringLiteral("exportMenu"));
    exports->setToolTipsVisible(true);
    exports->addActions(runPage_->exportActions());

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
    const RunToolBar* toolBar = runPage_->runToolBar();
    run->addAction(toolBar->playAction());
    run->addAction(toolBar->stepAction());
    run->addAction(toolBar->resetAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addAction(runPage_->savePictureAction());
    addColorSchemeMenu(view);
    view->addSeparator();
    addPresentationActions(view);
    view->addSeparator();
    for (QDockWidget* dock : runPage_->docks())
        view->addAction(dock->toggleViewAction());

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

void MainWindow::updateTitle()
{
    const Simulation& sim = runPage_->simulation();
    const LessonPanel& panel = *lessonPanel();
    if (showingRun() && panel.hasLesson()) {
        // The lesson's, not the scenario's its step runs: a step that
        // measures the structures runs no scenario at all.
        const QString lesson = QString::fromStdString(panel.lesson().title);
        const QString step = tr("step %1 of %2").arg(panel.stepIndex() + 1).arg(panel.lesson().steps.size());
        const QString machine = sim.isModelled() ? QStringLiteral(" — ") + sim.machineShortText() : QString();
        setWindowTitle(panel.probeStep() || sim.state() == Simulation::State::Empty
                ? tr("%1 — %2 — Page Cache Lab").arg(lesson, step)
                : tr("%1 — %2%3 — %4 — Page Cache Lab").arg(lesson, step, machine, Simulation::stateName(sim.state())));
    } else if (showingRun() && sim.state() != Simulation::State::Empty) {
        QString title = QString::fromStdString(sim.scenario().title);
        if (title.isEmpty())
            title = tr("Untitled scenario");
        if (sim.isModelled())
            title += QStringLiteral(" — ") + sim.machineShortText();
        setWindowTitle(tr("%1 — %2 — Page Cache Lab").arg(title, Simulation::stateName(sim.state())));
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
    Simulation& sim = simulation();
    try {
        sim.setScenario(entry.scenario);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // Its files are named after the preset or the file it came from.
    sim.setFileStem(fileNameStem(QFileInfo(entry.id).fileName().section(QStringLiteral(".json"), 0, 0)));
    lessonPanel()->clearLesson();
    updateCaption();
    runPage_->hideLessonDocks();
    if (!entry.path.startsWith(QLatin1Char(':'))) {
        ScenarioLibrary::addRecentFile(entry.path);
        updateRecentMenu();
    }
    showRun();
    return true;
}

bool MainWindow::openLesson(const QString& nameOrPath, QString* error)
{
    LessonPanel& panel = *lessonPanel();
    try {
        panel.setLesson(find_lesson(nameOrPath.toStdString()));
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    simulation().setFileStem(fileNameStem(QString::fromStdString(panel.lesson().name)));
    // A first step that measures the structures sets no run of its own: the
    // run of what was open before starts again, its figures and charts
    // empty, so that nothing of it passes for the lesson's.
    if (panel.probeStep())
        simulation().reset();
    showRun();
    runPage_->lessonDock()->show();
    runPage_->lessonDock()->raise();
    // The lesson, the views and the charts side by side on a projector's
    // 1280 pixels: the charts give up some of their width to the views.
    dockZoom_->resize({ runPage_->lessonDock(), runPage_->chartsDock() }, { 380, 400 });
    // The step asked for its view before the run page was shown.
    panel.resetStep();
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
    simulation().pause();
    stack_->setCurrentWidget(galleryPage_);
    runPage_->setShown(false);
    captionBar_->hide();
    // The window's minimum size follows what is shown now (the layout sets
    // it when it activates), so a restored or scripted size is not held to
    // the docks' minimum.
    layout()->activate();
    saveAction_->setEnabled(simulation().state() != Simulation::State::Empty);
    updateTitle();
}

void MainWindow::showRun()
{
    stack_->setCurrentWidget(runPage_);
    runPage_->setShown(true);
    if (runDockState_.state.isEmpty()) {
        // First shown: the docks as the run page sized them, at 100%.
        for (QDockWidget* dock : runPage_->docks())
            dock->show();
        runDockState_ = dockZoom_->current();
        runDockState_.scale = 1.0;
    }
    dockZoom_->restore(runDockState_);
    runPage_->showLessonDocks();
    saveAction_->setEnabled(true);
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
    if (simulation().state() == Simulation::State::Empty)
        return;
    using Export = RunPage::Export;
    const QString path = askSavePath(
        this, tr("Save scenario"), runPage_->exportFileName(Export::Scenario), tr("Scenario files (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    switch (runPage_->exportTo(Export::Scenario, path, &error)) {
    case SaveResult::Saved:
        ScenarioLibrary::addRecentFile(path);
        updateRecentMenu();
        statusBar()->showMessage(tr("Saved the scenario to %1").arg(QDir::toNativeSeparators(path)), 5000);
        break;
    case SaveResult::Failed:
        showSaveFailure(this, tr("Save scenario"), RunPage::exportWhat(Export::Scenario), path, error);
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
    simulation().pause();
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
