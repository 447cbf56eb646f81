#include "kit/structureview.h"

#include "kit/hovertip.h"
#include "kit/liverun.h"

#include <QEvent>

#include <QMouseEvent>
#include <QPainter>
#include <QShowEvent>
#include <QToolButton>
#include <QWheelEvent>

namespace pcl::ui {

StructureView::StructureView(LiveRun& run, QWidget* parent)
    : QWidget(parent)
    , run_(run)
    , source_(run)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    clock_.start();
    fitButton_ = new QToolButton(this);
    fitButton_->setText(tr("Fit"));
    connect(fitButton_, &QToolButton::clicked, this, [this] { fit(); });
    connect(&run_, &LiveRun::runReset, this, [this] { onRunReset(); });
    connect(&run_, &LiveRun::ticked, this, [this] { onTicked(); });
    connect(&run_, &LiveRun::runEnded, this, [this] { onRunEnded(); });
    connect(&run_, &LiveRun::eventsArrived, this, [this](const std::vector<Event>& events) { onEvents(events); });
}

StructureView::~StructureView() = default;

void StructureView::setFitToolTip(const QString& text)
{
    fitButton_->setToolTip(text);
}

void StructureView::onTicked()
{
    if (!isVisible())
        return;
    if (ticksToSkip_ > 0) {
        --ticksToSkip_;
        return;
    }
    refresh();
}

void StructureView::onRunEnded()
{
    if (!followsRun())
        return;
    refreshAtNextTick();
    refresh();
}

void StructureView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (source_.benchmark() || !source_.hasRun())
        return;
    refreshAtNextTick();
    refresh();
}

void StructureView::placeControls()
{
    const QSize b = fitButton_->sizeHint();
    fitButton_->setGeometry(width() - b.width() - 8, 4, b.width(), b.height());
}

void StructureView::paintMessage(QPainter& p, const QString& text) const
{
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
}

bool StructureView::event(QEvent* e)
{
    return showHoverTip(this, e) || QWidget::event(e);
}

void StructureView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    paintScene(p);
    lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

void StructureView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    placeControls();
}

void StructureView::wheelEvent(QWheelEvent* e)
{
    const double notches = e->angleDelta().y() / 120.0;
    Viewport v = viewport();
    if (notches == 0 || !(v.x.moves() || v.y.moves())) {
        e->ignore();
        return;
    }
    v.zoomAround(e->position(), notches);
    setViewport(v);
    e->accept();
}

void StructureView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    gesture_.press(e->position().toPoint());
    pressViewport_ = viewport();
    e->accept();
}

void StructureView::mouseMoveEvent(QMouseEvent* e)
{
    if (!gesture_.pressed() || !(e->buttons() & Qt::LeftButton))
        return;
    const bool wasDragging = gesture_.dragging();
    if (!gesture_.move(e->position().toPoint()))
        return;
    if (!wasDragging) {
        setCursor(Qt::ClosedHandCursor);
        dragStarted();
    }
    Viewport v = pressViewport_;
    v.pan(e->position() - QPointF(gesture_.from()));
    setViewport(v);
}

void StructureView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !gesture_.pressed())
        return;
    if (gesture_.dragging())
        unsetCursor();
    if (gesture_.release()) {
        clickAt(e);
        Q_EMIT clicked(e->position().toPoint());
    }
}

void StructureView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        styleChanged();
        // A layout holds the colours it was laid out with: laid out again,
        // in view; a hidden view is when it is shown (showEvent).
        if (isVisible())
            refresh();
    }
    QWidget::changeEvent(e);
}

void StructureView::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        fit();
}

} // namespace pcl::ui
