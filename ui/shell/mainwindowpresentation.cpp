// The main window's presentation mode: full screen, the step as a caption,
// the one zoom, and the keys a presentation clicker sends.
#include "lessons/lessonpanel.h"
#include "run/runtoolbar.h"
#include "shell/dockzoom.h"
#include "shell/keyrouting.h"
#include "shell/mainwindow.h"
#include "shell/stepcaption.h"
#include "shell/zoom.h"
#include "views/tornpte/tornpteview.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QScreen>
#include <QTimer>
#include <QToolBar>

namespace pcl::ui {

void MainWindow::createPresentation()
{
    zoom_ = new Zoom(this);
    zoom_->setRemember(rememberGeometry_);
    // No more than the screen has room for (a window moved to another
    // screen keeps the limit of the one it opened on).
    if (const QScreen* screen = this->screen())
        zoom_->setMaximum(Zoom::maximumFor(screen->size()));
    dockZoom_ = std::make_unique<DockZoom>(*this, runPage_->docks(), zoom_->scale());
    // The toolbar's icons are drawn at a size in pixels: they grow with the text.
    const QSize icons = runPage_->runToolBar()->iconSize();
    connect(zoom_, &Zoom::aboutToChangeScale, this, [this] { dockZoom_->aboutToChangeScale(); });
    connect(zoom_, &Zoom::scaleChanged, this, [this, icons](double scale) {
        runPage_->runToolBar()->setIconSize(icons * scale);
        updateCaption();
        // The docks with their content, once the new font has reached it.
        QTimer::singleShot(0, this, [this, scale] {
            if (zoom_->scale() == scale)
                dockZoom_->setScale(scale);
        });
    });

    // Across the bottom of the window, under the docks: the buttons keep
    // their place whatever the width of the lesson beside the views.
    caption_ = new StepCaption;
    captionBar_ = new QToolBar(tr("Step caption"), this);
    captionBar_->setObjectName(QStringLiteral("stepCaptionBar"));
    captionBar_->setMovable(false);
    captionBar_->setFloatable(false);
    captionBar_->toggleViewAction()->setVisible(false);
    captionBar_->addWidget(caption_);
    addToolBar(Qt::BottomToolBarArea, captionBar_);
    captionBar_->hide();
    connect(caption_, &StepCaption::nextClicked, this, &MainWindow::presentNext);
    connect(caption_, &StepCaption::backClicked, this, &MainWindow::presentBack);
    connect(lessonPanel(), &LessonPanel::stepShown, this, &MainWindow::updateCaption);

    keys_ = new KeyRouting(this, this);
    keys_->setLessonShown([this] { return showingRun() && lessonPanel()->hasLesson(); });
    keys_->setStepping([this] { presentNext(); }, [this] { presentBack(); });
    qApp->installEventFilter(keys_);
}

void MainWindow::addPresentationActions(QMenu* view)
{
    presentationAction_ = view->addAction(tr("P&resentation mode"));
    presentationAction_->setObjectName(QStringLiteral("presentationAction"));
    presentationAction_->setCheckable(true);
    presentationAction_->setShortcut(QKeySequence(Qt::Key_F11));
    presentationAction_->setStatusTip(tr("Full screen, with the lesson's step in large print across the bottom; "
                                         "Page Down and Page Up (a presenter's clicker) step the lesson. F11 or "
                                         "Escape leaves it."));
    connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresenting);
    // Escape leaves it too, as it leaves a slide show; only while presenting,
    // so that it goes on closing what it closes elsewhere.
    auto* leave = new QAction(this);
    leave->setObjectName(QStringLiteral("leavePresentationAction"));
    leave->setShortcut(QKeySequence(Qt::Key_Escape));
    leave->setEnabled(false);
    connect(leave, &QAction::triggered, this, [this] { setPresenting(false); });
    connect(presentationAction_, &QAction::toggled, leave, &QAction::setEnabled);
    addAction(leave);

    zoomInAction_ = view->addAction(tr("Zoom &in"));
    zoomInAction_->setObjectName(QStringLiteral("zoomInAction"));
    zoomInAction_->setShortcuts({ QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal) });
    zoomInAction_->setStatusTip(tr("Larger text and drawings, for the back of a lecture hall"));
    connect(zoomInAction_, &QAction::triggered, zoom_, &Zoom::zoomIn);
    zoomOutAction_ = view->addAction(tr("Zoom &out"));
    zoomOutAction_->setObjectName(QStringLiteral("zoomOutAction"));
    zoomOutAction_->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOutAction_, &QAction::triggered, zoom_, &Zoom::zoomOut);
    zoomResetAction_ = view->addAction(tr("&Actual size"));
    zoomResetAction_->setObjectName(QStringLiteral("zoomResetAction"));
    zoomResetAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(zoomResetAction_, &QAction::triggered, zoom_, &Zoom::reset);
    const auto updateZoomActions = [this](double scale) {
        zoomInAction_->setEnabled(scale < zoom_->maximum() - 1e-9);
        zoomOutAction_->setEnabled(scale > Zoom::stops().front());
        zoomResetAction_->setText(tr("&Actual size (now %1%)").arg(std::lround(scale * 100)));
    };
    connect(zoom_, &Zoom::scaleChanged, this, updateZoomActions);
    connect(zoom_, &Zoom::maximumChanged, this, [this, updateZoomActions] { updateZoomActions(zoom_->scale()); });
    updateZoomActions(zoom_->scale());
}

void MainWindow::setPresenting(bool on)
{
    if (on == presenting_)
        return;
    // The layout as it is, before the caption's bar is shown.
    if (on) {
        statesBeforePresenting_ = windowState() & ~Qt::WindowActive;
        beforePresenting_ = dockZoom_->current();
        sizeBeforePresenting_ = size();
    }
    presenting_ = on;
    presentationAction_->setChecked(on);
    updateCaption();
    // From the event loop: a state the platform reports for the window's
    // showing, still queued, would otherwise undo the first request.
    QTimer::singleShot(0, this, [this] {
        const Qt::WindowStates normal = statesBeforePresenting_ & ~Qt::WindowFullScreen;
        setWindowState(presenting_ ? normal | Qt::WindowFullScreen : normal);
        // The layout from before, at the zoom chosen while presenting.
        if (!presenting_)
            dockZoom_->restoreAtSize(beforePresenting_, sizeBeforePresenting_);
    });
}

void MainWindow::updateCaption()
{
    const LessonPanel& panel = *lessonPanel();
    const bool lesson = panel.hasLesson();
    if (lesson)
        caption_->setStep(panel.stepTitle(), panel.stepBody(), panel.hasBack(), panel.hasNext());
    captionBar_->setVisible(presenting_ && lesson && showingRun());
    updateTitle();
}

void MainWindow::presentNext()
{
    LessonPanel& panel = *lessonPanel();
    if (!panel.hasLesson())
        return;
    TornPteView* tornPte = runPage_->tornPte();
    if (panel.stepView() == QLatin1String("tornpte") && runPage_->currentView() == tornPte && !tornPte->atEnd()) {
        tornPte->next();
        return;
    }
    panel.next();
}

void MainWindow::presentBack()
{
    LessonPanel& panel = *lessonPanel();
    if (!panel.hasLesson())
        return;
    TornPteView* tornPte = runPage_->tornPte();
    if (panel.stepView() == QLatin1String("tornpte") && runPage_->currentView() == tornPte && tornPte->step() > 0) {
        tornPte->back();
        return;
    }
    panel.back();
}

} // namespace pcl::ui
