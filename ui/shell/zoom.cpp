#include "shell/zoom.h"

#include <QApplication>
#include <QSettings>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

Zoom::Zoom(QObject* parent)
    : QObject(parent)
    , base_(QApplication::font())
    , maximum_(stops().back())
{
}

const std::vector<double>& Zoom::stops()
{
    // Steps a reader notices, up to three times the desktop's size: 9 pt
    // becomes 27 pt, readable across a lecture hall on a 1080p projector.
    static const std::vector<double> kStops { 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0 };
    return kStops;
}

double Zoom::maximumFor(QSize screen)
{
    double best = 1.0;
    for (const double stop : stops())
        if (stop > best && screen.width() / stop >= kMinimumRoom.width()
            && screen.height() / stop >= kMinimumRoom.height())
            best = stop;
    return best;
}

void Zoom::setMaximum(double maximum)
{
    maximum = std::max(1.0, maximum);
    if (maximum == maximum_)
        return;
    maximum_ = maximum;
    if (scale_ > maximum_ + 1e-9)
        setScale(maximum_);
    Q_EMIT maximumChanged(maximum_);
}

void Zoom::setScale(double scale)
{
    scale = std::min(scale, maximum_);
    const auto& s = stops();
    const auto nearest = std::min_element(
        s.begin(), s.end(), [scale](double a, double b) { return std::abs(a - scale) < std::abs(b - scale); });
    if (*nearest == scale_)
        return;
    Q_EMIT aboutToChangeScale();
    scale_ = *nearest;
    QFont f = base_;
    // A font given in pixels (some desktops hand one) scales in pixels.
    if (base_.pointSizeF() > 0)
        f.setPointSizeF(base_.pointSizeF() * scale_);
    else if (base_.pixelSize() > 0)
        f.setPixelSize(std::max(1, int(std::lround(base_.pixelSize() * scale_))));
    QApplication::setFont(f);
    if (remember_)
        QSettings().setValue(QLatin1String(settingsKey()), scale_);
    Q_EMIT scaleChanged(scale_);
}

void Zoom::restore()
{
    bool ok = false;
    const double saved = QSettings().value(QLatin1String(settingsKey()), 1.0).toDouble(&ok);
    // A scale chosen on a larger screen stays saved for it, however far
    // this screen brings it down.
    const bool remember = remember_;
    remember_ = false;
    setScale(ok && std::isfinite(saved) ? saved : 1.0);
    remember_ = remember;
}

void Zoom::zoomIn()
{
    const auto& s = stops();
    const auto next = std::upper_bound(s.begin(), s.end(), scale_ + 1e-9);
    if (next != s.end() && *next <= maximum_ + 1e-9)
        setScale(*next);
}

void Zoom::zoomOut()
{
    const auto& s = stops();
    const auto below = std::lower_bound(s.begin(), s.end(), scale_ - 1e-9);
    if (below != s.begin())
        setScale(*(below - 1));
}

void Zoom::reset()
{
    setScale(1.0);
}

} // namespace pcl::ui
