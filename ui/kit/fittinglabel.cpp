#include "kit/fittinglabel.h"

#include <QResizeEvent>

#include <algorithm>

namespace pcl::ui {

void FittingLabel::setTexts(const QString& full, const QString& brief)
{
    if (full == full_ && brief == brief_)
        return;
    full_ = full;
    brief_ = brief;
    fit();
    updateGeometry(); // both hints follow the texts
}

void FittingLabel::setRoom(int width)
{
    if (width == room_)
        return;
    room_ = width;
    fit();
    updateGeometry();
}

bool FittingLabel::fitsIn(int width) const
{
    const QMargins m = contentsMargins();
    return fontMetrics().horizontalAdvance(full_) + m.left() + m.right() <= width;
}

QSize FittingLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    const QString& asked = fitsIn(room_) ? full_ : brief_;
    return { fontMetrics().horizontalAdvance(asked) + m.left() + m.right(), QLabel::sizeHint().height() };
}

QSize FittingLabel::minimumSizeHint() const
{
    const QMargins m = contentsMargins();
    return { fontMetrics().horizontalAdvance(brief_) + m.left() + m.right(), QLabel::minimumSizeHint().height() };
}

void FittingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    fit();
}

void FittingLabel::fit()
{
    const bool fits = fitsIn(std::min(width(), room_));
    const QString& shown = fits ? full_ : brief_;
    if (text() != shown)
        setText(shown);
}

} // namespace pcl::ui
