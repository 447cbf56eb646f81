// What the Qt tests share: a dark palette to render views in, a count of
// the colours in a grabbed image (a screenshot that is not blank has text,
// lines and fills: far more than a few flat colours), and where to save
// screenshots for a person to look at.
#pragma once

#include <QColor>
#include <QDir>
#include <QImage>
#include <QPalette>
#include <QSet>
#include <QString>
#include <QTest>
#include <QWidget>

#include <utility>

namespace pcl::ui::test {

/// A dark theme, as a desktop's dark mode would hand the application.
inline QPalette darkPalette()
{
    static const std::pair<QPalette::ColorRole, QRgb> kColours[] = {
        { QPalette::Window, 0x2b2b2e },
        { QPalette::WindowText, 0xe6e6e6 },
        { QPalette::Base, 0x1e1e21 },
        { QPalette::AlternateBase, 0x2f2f33 },
        { QPalette::Text, 0xe6e6e6 },
        { QPalette::Button, 0x353539 },
        { QPalette::ButtonText, 0xe6e6e6 },
        { QPalette::Highlight, 0x3d7ec9 },
        { QPalette::HighlightedText, 0xffffff },
        { QPalette::Link, 0x7cb4f0 },
        { QPalette::PlaceholderText, 0x9a9aa0 },
        { QPalette::ToolTipBase, 0x353539 },
        { QPalette::ToolTipText, 0xe6e6e6 },
        { QPalette::Light, 0x45454a },
        { QPalette::Midlight, 0x3a3a3e },
        { QPalette::Mid, 0x252528 },
        { QPalette::Dark, 0x18181a },
        { QPalette::Shadow, 0x000000 },
    };
    QPalette p;
    for (const auto& [role, rgb] : kColours)
        p.setColor(role, QColor::fromRgb(rgb));
    return p;
}

/// The rows of a screenshot test that runs in the light theme and the dark
/// one: a bool column "dark", true for darkPalette().
inline void addThemeRows()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

/// Gives @widget the theme of an addThemeRows() row (darkPalette() when
/// @dark, the application's palette otherwise) and the size of its
/// screenshot.
inline void applyTheme(QWidget& widget, bool dark, QSize size)
{
    if (dark)
        widget.setPalette(darkPalette());
    widget.resize(size);
}

/// The number of distinct colours in @image, every pixel counted.
inline int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

/// Where the tests save screenshots for a person to look at: the directory
/// PCL_SCREENSHOT_DIR names, or the temporary directory when it is unset or
/// empty. Created if it does not exist yet.
inline QString screenshotDir()
{
    QString dir = qEnvironmentVariable("PCL_SCREENSHOT_DIR");
    if (dir.isEmpty())
        dir = QDir::tempPath();
    QDir().mkpath(dir);
    return dir;
}

} // namespace pcl::ui::test
