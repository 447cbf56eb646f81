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

namespace pcl::ui::test {

/// A dark theme, as a desktop's dark mode would hand the application.
inline QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2e));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x21));
    p.setColor(QPalette::AlternateBase, QColor(0x2f, 0x2f, 0x33));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x39));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc9));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7c, 0xb4, 0xf0));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0xa0));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x39));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Light, QColor(0x45, 0x45, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3a, 0x3e));
    p.setColor(QPalette::Mid, QColor(0x25, 0x25, 0x28));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x1a));
    p.setColor(QPalette::Shadow, Qt::black);
    return p;
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
