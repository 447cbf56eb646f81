// What every layout behind a SceneView holds: the snapshot it draws, the
// widget's size, palette and font, the items in view along its one axis,
// and the parts of a scene the SceneView paints itself (labels, outlines,
// legend swatches), so the hash and skip-list layouts keep only what is
// their own.
#pragma once

#include "index/index_snapshot.h"
#include "kit/viewport.h"

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <vector>

namespace pcl::ui {

class SceneLayout {
public:
    struct Label {
        QRectF rect;
        QString text;
        int flags = 0; ///< Qt::Alignment | Qt::TextFlag
        QColor color;
        bool bold = false;
    };
    /// An outline drawn over something (a held lock's items, a global lock
    /// around the whole structure, a selection).
    struct Outline {
        QRectF rect;
        QColor color;
        double width = 1;
    };
    /// A swatch of the legend.
    struct Swatch {
        QRectF rect;
        QColor fill;
    };
    /// What every scene has over its own parts, which the SceneView paints
    /// (paintOutlines, paintKeyAndLabels): each layout's Scene derives from it.
    struct Overlay {
        std::vector<Outline> outlines;
        std::vector<Swatch> swatches;
        std::vector<Label> labels;
    };

    const IndexSnapshot& snapshot() const { return snap_; }
    void setSize(const QSizeF& size) { size_ = size; }
    void setPalette(const QPalette& palette) { palette_ = palette; }
    void setFont(const QFont& font) { font_ = font; }

    double viewFirst() const { return first_; }
    /// The view as a Viewport axis over items [0, @total), zoomed no
    /// narrower than @minSpan; where it lies on screen is the view's to say.
    ViewAxis viewAxis(double total, double minSpan = 0) const
    {
        ViewAxis a;
        a.first = first_;
        a.span = viewCountOf(total);
        a.lo = 0;
        a.hi = total;
        a.minSpan = minSpan;
        return a;
    }
    /// Shows every item.
    void fit()
    {
        first_ = 0;
        count_ = 0;
    }

protected:
    /// Shows items [first, first + count) of @total, at least @minCount of
    /// them, clamped to the content; @wholeFirst starts the view on a whole
    /// item. A view of everything is kept as count 0, so it still shows
    /// everything when the content grows.
    void clampView(double first, double count, double total, double minCount, bool wholeFirst);
    /// Items in view when there are @total.
    double viewCountOf(double total) const { return count_ > 0 ? count_ : total; }

    IndexSnapshot snap_;
    QSizeF size_ { 900, 600 };
    QPalette palette_;
    QFont font_;
    double first_ = 0;
    double count_ = 0; ///< 0: all
};

} // namespace pcl::ui
