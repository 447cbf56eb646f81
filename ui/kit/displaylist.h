// A laid-out picture as a list of simple items (fills, outlines, lines,
// arrows, text), each with its colour and the role it plays: what a
// layout hands its widget, what its tests read back, and what one painter
// draws, so a layout says what to draw without a widget and every view
// draws an item the same way.
#pragma once

#include <QColor>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

class QPainter;

namespace pcl::ui {

enum class DisplayKind : std::uint8_t { Fill, Outline, Line, Arrow, Text };

struct DisplayItem {
    DisplayKind kind = DisplayKind::Fill;
    QRectF rect;  ///< Line and Arrow: from topLeft to bottomRight
    QColor color; ///< fill, pen or text colour (alpha carries fading)
    QString text;
    int align = 0;    ///< Qt::Alignment for Text
    double width = 1; ///< pen width for Outline, Line and Arrow
    QString role;     ///< what it is, for tests and hit testing ("page", "pte-lock", "legend"...)
    int index = -1;   ///< which one of its role (a box, a CPU), where the layout numbers them
};

using DisplayList = std::vector<DisplayItem>;

/// Appends an item to @items: how a layout adds to its list.
void addDisplayItem(DisplayList& items, DisplayKind kind, const QRectF& rect, const QColor& color, const QString& role,
    const QString& text = {}, int align = 0, double width = 1, int index = -1);

/// Draws @items in order with @p's font.
void paintDisplayList(QPainter& p, const DisplayList& items);

} // namespace pcl::ui
