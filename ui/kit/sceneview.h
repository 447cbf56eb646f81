// A structure view whose layout builds its whole picture as one Scene (the
// hash and skip-list views): the layout (a SceneLayout), told the widget's
// size, font and palette, and its scene, kept until something it depends on
// changes; zooming along the layout's one axis and fitting it are the same
// in every such view, so they are written here.
#pragma once

#include "kit/scenecache.h"
#include "kit/scenelayout.h"
#include "kit/structureview.h"

#include <QPainter>
#include <QResizeEvent>

namespace pcl::ui {

template <class Layout> class SceneView : public StructureView {
public:
    using Scene = typename Layout::Scene;

    /// The scene the next paint draws.
    const Scene& scene() const
    {
        return scene_.get([this] { return layout_.build(); });
    }

    /// Shows items [first, first + count) along the layout's axis (clamped).
    void setView(double first, double count)
    {
        layout_.setView(first, count);
        invalidate();
    }
    void fit() override
    {
        layout_.fit();
        invalidate();
    }
    QSize sizeHint() const override { return QSize(900, 600); }

protected:
    SceneView(LiveRun& run, QWidget* parent)
        : StructureView(run, parent)
    {
        layout_.setFont(font());
        layout_.setPalette(palette());
    }

    /// @structure (a pointer or an optional), the one a refresh snapshots;
    /// without one there is nothing to snapshot, and a run's view empties (a
    /// benchmark keeps what it loaded).
    template <class Structure> Structure structureOrNothing(Structure structure)
    {
        if (!structure && !source_.benchmark()) {
            layout_.setSnapshot({});
            invalidate();
        }
        return structure;
    }
    /// Fills the background; true, with @message painted over it, when
    /// there is nothing else to paint.
    bool paintOnlyMessage(QPainter& p, const QString& message) const
    {
        p.fillRect(rect(), palette().color(QPalette::Window));
        if (message.isEmpty())
            return false;
        paintMessage(p, message);
        return true;
    }
    /// The outlines, unfilled, over what they outline.
    static void paintOutlines(QPainter& p, const SceneLayout::Overlay& s)
    {
        p.setBrush(Qt::NoBrush);
        for (const auto& o : s.outlines) {
            p.setPen(QPen(o.color, o.width));
            p.drawRect(o.rect);
        }
    }
    /// The legend's swatches, then every label (bold where it says so), over the rest.
    void paintKeyAndLabels(QPainter& p, const SceneLayout::Overlay& s) const
    {
        for (const auto& w : s.swatches) {
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            p.setBrush(w.fill);
            p.drawRect(w.rect);
        }
        QFont bold = font();
        bold.setBold(true);
        for (const auto& l : s.labels) {
            p.setFont(l.bold ? bold : font());
            p.setPen(l.color);
            p.drawText(l.rect, l.flags, l.text);
        }
    }
    /// The scene is out of date: rebuild it at the next paint.
    void invalidate()
    {
        scene_.invalidate();
        update();
    }
    void resizeEvent(QResizeEvent* e) override
    {
        StructureView::resizeEvent(e);
        layout_.setSize(size());
        scene_.invalidate();
    }
    void styleChanged() override
    {
        layout_.setPalette(palette());
        layout_.setFont(font());
        scene_.invalidate();
    }

    Layout layout_;
    SceneCache<Scene> scene_;
};

} // namespace pcl::ui
