// How the lock table draws a row: as the style draws it, but for the row
// another view points at (a lesson's step: "watch the lock's row turn
// red"). That row is selected so that the table scrolls to it and the
// other views follow it, yet the style's selection colour would cover the
// very shade the step asks the class to watch: it is drawn in its own
// contention shade instead, in bold, framed above and below in the text
// colour so that it stands out among rows as red as it.
#pragma once

#include <QStyledItemDelegate>

namespace pcl::ui {

class LockRowDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    /// Width of the frame round the pointed-at row, in pixels.
    static constexpr int kFrameWidth = 2;

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace pcl::ui
