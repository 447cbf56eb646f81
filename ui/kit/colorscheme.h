// Which set of colours every view, chart and export draws with: the
// standard one, or one a student with a colour-vision deficiency can read.
//
// The standard colours tell the CPU states apart mostly by hue: for the
// common red-green deficiencies (protanopia, deuteranopia, about one man in
// twelve) "waiting on a page" and "in I/O" come out nearly the same. The
// colour-blind-safe scheme takes Okabe and Ito's palette ("Color Universal
// Design", 2008), whose colours stay apart under those deficiencies and
// also differ in lightness, so that a grey projector still separates them.
//
// One scheme for the whole application: colors.h reads it on every call, so
// whatever is drawn after a change is drawn in the new colours; the notifier
// tells the views that keep colours of their own (chart series, table
// shades) to take them again, and every widget is repainted.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>

namespace pcl::ui {

enum class ColorScheme : std::uint8_t {
    Standard,
    ColorBlindSafe, ///< Okabe-Ito
};

/// The scheme in use (Standard until set).
ColorScheme colorScheme();
/// Uses @scheme from now on: notifies (ColorSchemeNotifier::changed) and
/// repaints every widget, if it is not the scheme in use already.
void setColorScheme(ColorScheme scheme);

/// The scheme's name in a settings file ("standard", "colour-blind-safe"),
/// and back (nullopt-like: false for an unknown name, @out untouched).
QString colorSchemeKey(ColorScheme scheme);
bool colorSchemeFromKey(const QString& key, ColorScheme* out);

/// Says when the scheme changes, for what keeps colours of its own.
class ColorSchemeNotifier : public QObject {
    Q_OBJECT
public:
    static ColorSchemeNotifier& instance();

Q_SIGNALS:
    void changed(pcl::ui::ColorScheme scheme);

private:
    ColorSchemeNotifier() = default;
};

} // namespace pcl::ui
