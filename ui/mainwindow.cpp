#include "mainwindow.h"

#include "aboutdialog.h"
#include "appicon.h"
#include "welcomepage.h"

#include <QAction>
#include <QCloseEvent>
#include <QGuiApplication>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>

namespace pcl::ui {

namespace {
const QString kGeometryKey = QStringLiteral("MainWindow/geometry");
const QString kStateKey = QStringLiteral("MainWindow/state");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , welcome_(new WelcomePage)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Page Cache Lab"));
    setWindowIcon(applicationIcon());

    // The welcome page scrolls rather than clips when the window is small.
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("welcomeScrollArea"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(welcome_);
    setCentralWidget(scroll);

    createMenus();
    resize(defaultSize());
}

QSize MainWindow::defaultSize()
{
    // 1200 x 720 suits a projector at 1280 x 720 and leaves room for the
    // docks to come; never more than 90% of the screen. The offscreen
    // platform's screen (tests, headless screenshots) is a made-up size.
    QSize size(1200, 720);
    const QScreen* screen = QGuiApplication::primaryScreen();
    if (screen && QGuiApplication::platformName() != QLatin1String("offscreen"))
        size = size.boundedTo(screen->availableSize() * 0.9);
    return size;
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    quitAction_ = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"));
    quitAction_->setObjectName(QStringLiteral("quitAction"));
    // Ctrl+Q on every platform (QKeySequence::Quit is empty on Windows).
    quitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quitAction_->setStatusTip(tr("Close the window and quit"));
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    aboutAction_ = help->addAction(applicationIcon(), tr("&About Page Cache Lab"));
    aboutAction_->setObjectName(QStringLiteral("aboutAction"));
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::showAbout()
{
    if (!about_) about_ = new AboutDialog(this);
    about_->open();
    about_->raise();
    about_->activateWindow();
}

bool MainWindow::restoreSettings()
{
    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) return false;
    restoreState(settings.value(kStateKey).toByteArray());
    return true;
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (rememberGeometry_) saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace pcl::ui
