#include "appicon.h"

#include <QPainter>
#include <QSvgRenderer>

// Q_INIT_RESOURCE must be used outside any namespace.
static void registerPclResources()
{
    [[maybe_unused]] static const bool registered = [] {
        Q_INIT_RESOURCE(resources);
        return true;
    }();
}

namespace pcl::ui {

namespace {
const QString kIconPath = QStringLiteral(":/pagecache-lab/pagecache-lab.svg");
}

QIcon applicationIcon()
{
    registerPclResources();
    return QIcon(kIconPath);
}

QPixmap applicationIconPixmap(const QSize& size, qreal devicePixelRatio)
{
    registerPclResources();
    QPixmap pixmap(size * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QSvgRenderer renderer(kIconPath);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return pixmap;
}

} // namespace pcl::ui
