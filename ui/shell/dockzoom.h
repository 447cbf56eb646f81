// The docks' sizes follow the window's zoom, and presentation mode gives
// the layout back as it found it.
//
// A dock's size is set in pixels, its content in the zoomed font: at 175%
// the charts dock of a 100% layout cut every chart title and the lock table
// showed one row. So the docks grow and shrink with the scale, from a
// reference layout (the one the user or the window last set, and the scale
// it was set at): each dock is the reference's size times the scale's
// ratio, within what the window has room for; back at the reference's
// scale, the reference itself comes back, exactly. A layout changed by
// hand (a splitter dragged, a dock closed) becomes the new reference at
// the next zoom.
//
// Presentation mode keeps the layout from before it (QMainWindow::
// saveState) and gives it back on leaving, at the scale in use then: the
// zoom is the window's, kept for the next start, so a layout at 100% comes
// back as it was if the presenter zoomed back, and grown in the same
// proportions if the presenter left at 150%.
#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSize>
#include <Qt>

#include <optional>

class QDockWidget;
class QMainWindow;

namespace pcl::ui {

class DockZoom : public QObject {
public:
    /// @docks: the window's docks, sized as the scale changes.
    DockZoom(QMainWindow& window, QList<QDockWidget*> docks, double scale);

    /// Notes the layout a change of scale starts from, before the new font
    /// has reached the docks' contents (which may raise their minimums and
    /// so move the docks): the next setScale starts from it, however many
    /// changes of scale come before it.
    void aboutToChangeScale();
    /// The docks' sizes for a change of the window's scale to @scale.
    void setScale(double scale);
    double scale() const { return scale_; }

    /// The layout now (as saveState() gives it), at the scale now.
    struct Layout {
        QByteArray state;
        double scale = 1.0;
        /// Each dock in front in the layout ("name@area"): its width in a
        /// side area, its height at the top or the bottom.
        QMap<QString, int> sizes;
    };
    Layout current() const;
    /// Restores @layout (its docks, tabs and sizes) at the scale now: its
    /// sizes times the ratio of the scales, as setScale would have left them.
    void restore(const Layout& layout);

    /// Restores @layout now, and again whenever the window is resized until
    /// it has @size: leaving full screen, the window gets its size back from
    /// the platform later, and the docks restored in the full screen would
    /// be squeezed on the way.
    void restoreAtSize(const Layout& layout, QSize size);

    /// Sets @docks to @sizes, given in pixels at 100%, at the scale now,
    /// within the room the window has (resizeDocks, zoomed).
    void resize(const QList<QDockWidget*>& docks, const QList<int>& sizes);
    /// The room the docks of either orientation may take together, as a
    /// share of the window: the centre keeps the rest. The centre holds the
    /// view a step is about (the CPUs queueing, the tree growing): at 150%
    /// on a 1080p projector the default docks still grow with the text (the
    /// lesson and the charts then take 60% of the width), and at 200% the
    /// centre keeps close to two fifths of it while the docks' contents elide.
    static constexpr double kSideShare = 0.62;
    static constexpr double kBottomShare = 0.45;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The layout the next zoom starts from: the one applied last, unless
    /// the user has changed it since.
    void takeReference();
    void apply(const Layout& reference);
    /// resizeDocks, with the dock itself, not its tab group, at @sizes.
    void resizeExactly(const QList<QDockWidget*>& docks, const QList<int>& sizes, Qt::Orientation o);

    QMainWindow& window_;
    QList<QDockWidget*> docks_;
    double scale_;
    Layout reference_;
    std::optional<QSize> pendingSize_; ///< restoreAtSize's, until the window has it
    Layout applied_;                   ///< the layout after the last apply, to see a change by hand
    bool referenceHeld_ = false;       ///< aboutToChangeScale took the reference the next setScale starts from
};

} // namespace pcl::ui
