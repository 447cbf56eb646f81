// What every structure view is as a widget: a Fit button, the wheel, the
// drag and the double-click turned into view changes through one Viewport,
// the hover tip, and the time the last paint and the last snapshot took.
// A view says what it shows (viewport/setViewport, fit), paints its scene,
// and says what a click does and what hovering shows; the gestures are the
// same in every view because they are written once, here.
#pragma once

#include "events/event.h"
#include "kit/clickordrag.h"
#include "kit/structuresource.h"
#include "kit/viewport.h"

#include <QElapsedTimer>
#include <QWidget>

#include <utility>
#include <vector>

class QToolButton;

namespace pcl::ui {

class LiveRun;

class StructureView : public QWidget {
    Q_OBJECT
public:
    /// GUI-thread time a snapshot may take: a view whose snapshots cost more
    /// walks less of its structure or skips ticks.
    static constexpr double kSnapshotBudgetMs = 8;

    explicit StructureView(LiveRun& run, QWidget* parent = nullptr);
    ~StructureView() override;

    /// Takes a snapshot now and repaints (what a tick does while visible);
    /// a view that reads the run as events arrive takes none.
    virtual void refresh() { }

    /// The part of the content in view now, and where it lies on screen.
    virtual Viewport viewport() const = 0;
    /// Shows the whole content (Fit, double-click).
    virtual void fit() = 0;
    /// What hovering @pos shows; empty over nothing.
    virtual QString toolTipAt(const QPoint& pos) const = 0;

    /// Milliseconds the last paintEvent took.
    double lastPaintMs() const { return lastPaintMs_; }
    /// Milliseconds the last snapshot of the structure took (0 where the
    /// view takes none of its own).
    double lastSnapshotMs() const { return lastSnapshotMs_; }

    QToolButton* fitButton() const { return fitButton_; }

Q_SIGNALS:
    /// A press released before it became a drag, at @pos.
    void clicked(QPoint pos);

protected:
    /// Shows @v (each view clamps it to what it can show).
    virtual void setViewport(const Viewport& v) = 0;
    /// Draws the view; the time it takes is lastPaintMs().
    virtual void paintScene(QPainter& p) = 0;
    /// What a click (a left press released before it moved kThreshold) does.
    virtual void clickAt(QMouseEvent* e) { (void)e; }
    /// A press became a drag.
    virtual void dragStarted() { }
    /// Places the controls; by default the Fit button in the top right corner.
    virtual void placeControls();
    /// The run was reset (a new run, or none).
    virtual void onRunReset() { }
    /// The run ended (finished, stopped or failed). The timer stops with it,
    /// so no tick follows: a visible view takes its last snapshot now, and a
    /// hidden one takes it when it is shown (showEvent). Either way the view
    /// keeps the run's final state until the next reset.
    virtual void onRunEnded();
    /// A tick of the run's timer: by default a refresh while visible,
    /// unless paceSnapshots() said to skip it.
    virtual void onTicked();
    /// Whether a tick has something to show: the view is visible and shows
    /// the run, not a benchmark's structure.
    bool followsRun() const { return isVisible() && !source_.benchmark(); }
    /// The events the tick drained.
    virtual void onEvents(const std::vector<Event>& events) { (void)events; }
    /// The palette or the font changed.
    virtual void styleChanged() { }

    /// Runs @take, keeping how long it took as lastSnapshotMs().
    template <class Take> decltype(auto) timeSnapshot(Take&& take)
    {
        QElapsedTimer timer;
        timer.start();
        struct Done {
            QElapsedTimer& timer;
            double& ms;
            ~Done() { ms = double(timer.nsecsElapsed()) / 1e6; }
        } done { timer, lastSnapshotMs_ };
        return std::forward<Take>(take)();
    }
    /// After a snapshot that took lastSnapshotMs(): the default onTicked()
    /// skips a tick for every kSnapshotBudgetMs it took, so that snapshots
    /// take about that much of each tick at the most.
    void paceSnapshots() { ticksToSkip_ = int(lastSnapshotMs() / kSnapshotBudgetMs); }
    /// The next visible tick refreshes, however slow the last snapshot was.
    void refreshAtNextTick() { ticksToSkip_ = 0; }
    /// A view with nothing to show says why, centred.
    void paintMessage(QPainter& p, const QString& text) const;
    void setFitToolTip(const QString& text);

    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;
    /// A view shown after ticks it missed while hidden (another tab was in
    /// front, or the run ended meanwhile) catches up at once rather than
    /// showing what it held when it was hidden.
    void showEvent(QShowEvent* e) override;

    /// The run the view follows.
    LiveRun& run_;
    /// What the view shows: the run's structures or a benchmark's.
    StructureSource source_;
    /// Started with the view: the time base of its fades and animations.
    QElapsedTimer clock_;

private:
    QToolButton* fitButton_ = nullptr;
    ClickOrDrag gesture_;
    Viewport pressViewport_;
    double lastPaintMs_ = 0;
    double lastSnapshotMs_ = 0;
    int ticksToSkip_ = 0;
};

} // namespace pcl::ui
