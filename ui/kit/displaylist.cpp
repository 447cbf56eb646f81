#include "kit/displaylist.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace pcl::ui {

void addDisplayItem(DisplayList& items, DisplayKind kind, const QRectF& rect, const QColor& color, const QString& role,
    const QString& text, int align, double width, int index)
{
    items.push_back(DisplayItem { kind, rect, color, text, align, width, role, index });
}

namespace {

void paintArrow(QPainter& p, const DisplayItem& it)
{
    // Only arrows are antialiased: boxes and bars sit on whole pixels,
    // and antialiasing every fill would cost more than the rest of the frame.
    p.setRenderHint(QPainter::Antialiasing, true);
    const QPointF a = it.rect.topLeft(), b = it.rect.bottomRight();
    p.setPen(QPen(it.color, it.width));
    p.drawLine(a, b);
    const double ang = std::atan2(b.y() - a.y(), b.x() - a.x());
    const double len = 9;
    QPainterPath head;
    head.moveTo(b);
    head.lineTo(b - QPointF(std::cos(ang - 0.4) * len, std::sin(ang - 0.4) * len));
    head.lineTo(b - QPointF(std::cos(ang + 0.4) * len, std::sin(ang + 0.4) * len));
    head.closeSubpath();
    p.fillPath(head, it.color);
    p.setRenderHint(QPainter::Antialiasing, false);
}

} // namespace

void paintDisplayList(QPainter& p, const DisplayList& items)
{
    for (const DisplayItem& it : items) {
        switch (it.kind) {
        case DisplayKind::Fill:
            p.fillRect(it.rect, it.color);
            break;
        case DisplayKind::Outline:
            p.setPen(QPen(it.color, it.width));
            p.setBrush(Qt::NoBrush);
            p.drawRect(it.rect);
            break;
        case DisplayKind::Line:
            p.setPen(QPen(it.color, it.width));
            p.drawLine(it.rect.topLeft(), it.rect.bottomRight());
            break;
        case DisplayKind::Arrow:
            paintArrow(p, it);
            break;
        case DisplayKind::Text:
            p.setPen(it.color);
            p.drawText(it.rect, it.align, it.text);
            break;
        }
    }
}

} // namespace pcl::ui
