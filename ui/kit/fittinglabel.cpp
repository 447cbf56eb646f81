#include "kit/fittinglabel.h"

#include <QResizeEvent>

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

QSize FittingLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return { fontMetrics().horizontalAdvance(full_) + m.left() + m.right(), QLabel::sizeHint().height() };
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
    const bool fits = fontMetrics().horizontalAdvance(full_) <= contentsRect().width();
    const QString& shown = fits ? full_ : brief_;
    if (text() != shown)
        setText(shown);
}

} // namespace pcl::ui
