// render_icon: the application's SVG icon drawn as PNGs at the sizes given,
// for the desktops, menus and software centres that look for a PNG of the
// size they show (AppStream catalogues take the 64 and 128 pixel ones)
// rather than scale the SVG themselves. Drawn by Qt's SVG renderer, the one
// the application draws its window icon with. Run at build time only.
// Usage: render_icon ICON.svg DIR SIZE...
// writes DIR/SIZExSIZE/apps/ICON.png, the layout of the hicolor theme.
#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: render_icon ICON.svg DIR SIZE...\n");
        return 2;
    }
    // Text in an SVG needs the fonts a QGuiApplication loads; the offscreen
    // platform needs no display.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);

    const QString svgPath = QString::fromLocal8Bit(argv[1]);
    QSvgRenderer svg(svgPath);
    if (!svg.isValid()) {
        std::fprintf(stderr, "render_icon: %s is not an SVG Qt can draw\n", argv[1]);
        return 1;
    }
    const QString name = QFileInfo(svgPath).completeBaseName();
    const QString dir = QString::fromLocal8Bit(argv[2]);
    for (int i = 3; i < argc; ++i) {
        bool ok = false;
        const int size = QByteArray(argv[i]).toInt(&ok);
        if (!ok || size < 1 || size > 1024) {
            std::fprintf(stderr, "render_icon: '%s' is not a size in pixels (1..1024)\n", argv[i]);
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        svg.render(&painter);
        painter.end();
        const QString appsDir = QStringLiteral("%1/%2x%2/apps").arg(dir).arg(size);
        const QString png = QStringLiteral("%1/%2.png").arg(appsDir, name);
        if (!QDir().mkpath(appsDir) || !image.save(png, "PNG")) {
            std::fprintf(stderr, "render_icon: cannot write %s\n", qPrintable(png));
            return 1;
        }
    }
    return 0;
}
