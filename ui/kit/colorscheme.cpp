#include "kit/colorscheme.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

namespace pcl::ui {

namespace {
// The GUI thread sets and reads it; the views draw on that thread only.
ColorScheme gScheme = ColorScheme::Standard;
} // namespace

ColorScheme colorScheme()
{
    return gScheme;
}

void setColorScheme(ColorScheme scheme)
{
    if (scheme == gScheme)
        return;
    gScheme = scheme;
    Q_EMIT ColorSchemeNotifier::instance().changed(scheme);
    // What is drawn changed as a palette change changes it: every widget
    // that lays out or shades with colours of its own (tables, charts, the
    // structure views' layouts) already takes them again on a palette
    // change, and the rest repaint.
    if (qobject_cast<QApplication*>(QCoreApplication::instance())) {
        const auto widgets = QApplication::allWidgets();
        for (QWidget* w : widgets) {
            QEvent change(QEvent::PaletteChange);
            QCoreApplication::sendEvent(w, &change);
            w->update();
        }
    }
}

QString colorSchemeKey(ColorScheme scheme)
{
    return scheme == ColorScheme::ColorBlindSafe ? QStringLiteral("colour-blind-safe") : QStringLiteral("standard");
}

bool colorSchemeFromKey(const QString& key, ColorScheme* out)
{
    if (key == QLatin1String("standard"))
        *out = ColorScheme::Standard;
    else if (key == QLatin1String("colour-blind-safe"))
        *out = ColorScheme::ColorBlindSafe;
    else
        return false;
    return true;
}

ColorSchemeNotifier& ColorSchemeNotifier::instance()
{
    static ColorSchemeNotifier notifier;
    return notifier;
}

} // namespace pcl::ui
