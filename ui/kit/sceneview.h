// A structure view whose layout builds its whole picture as one Scene (the
// hash and skip-list views): the layout, told the widget's size, font and
// palette, and its scene, kept until something it depends on changes.
#pragma once

#include "kit/scenecache.h"
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

protected:
    SceneView(Simulation& sim, QWidget* parent)
        : StructureView(sim, parent)
    {
        layout_.setFont(font());
        layout_.setPalette(palette());
    }

    /// The legend's swatches, then every label (bold where it says so), over the rest.
    void paintKeyAndLabels(QPainter& p, const Scene& s) const
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
