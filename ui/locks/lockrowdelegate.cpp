#include "locks/lockrowdelegate.h"

#include "locks/locktablemodel.h"

#include <QHeaderView>
#include <QPainter>
#include <QTableView>

namespace pcl::ui {

void LockRowDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    if (!index.data(LockTableModel::HighlightRole).toBool()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The row's own shade (or none yet), not the selection's.
    QStyleOptionViewItem o = option;
    o.state &= ~(QStyle::State_Selected | QStyle::State_HasFocus);
    const QVariant shade = index.data(Qt::BackgroundRole);
    painter->fillRect(o.rect, shade.isValid() ? shade.value<QColor>() : o.palette.color(QPalette::Base));
    QStyledItemDelegate::paint(painter, o, index);

    const QColor frame = o.palette.color(QPalette::Text);
    const QRect r = o.rect;
    painter->fillRect(QRect(r.left(), r.top(), r.width(), kFrameWidth), frame);
    painter->fillRect(QRect(r.left(), r.bottom() - kFrameWidth + 1, r.width(), kFrameWidth), frame);
    // The row's ends: the first and the last column shown.
    const auto* table = qobject_cast<const QTableView*>(o.widget);
    if (!table)
        return;
    const QHeaderView* header = table->horizontalHeader();
    int first = -1, last = -1;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (header->isSectionHidden(logical))
            continue;
        if (first < 0)
            first = logical;
        last = logical;
    }
    if (index.column() == first)
        painter->fillRect(QRect(r.left(), r.top(), kFrameWidth, r.height()), frame);
    if (index.column() == last)
        painter->fillRect(QRect(r.right() - kFrameWidth + 1, r.top(), kFrameWidth, r.height()), frame);
}

} // namespace pcl::ui
