#include "shell/appicon.h"

#include "kit/resources.h"

#include <QPainter>
#include <QSvgRenderer>

namespace pcl::ui {

namespace {
const QString kIconPath = QStringLiteral(":/pagecache-lab/pagecache-lab.svg");
}

QIcon applicationIcon()
{
    registerResources();
    return QIcon(kIconPath);
}

QPixmap applicationIconPixmap(const QSize& size, qreal devicePixelRatio)
{
    registerResources();
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
