#include "kit/widgetpicture.h"

#include "kit/savefile.h"
#include "kit/structureview.h"

#include <QAbstractButton>
#include <QBuffer>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QSvgGenerator>
#include <QWidget>

#include <vector>

namespace pcl::ui {

namespace {

bool fail(QString* error, const QString& why)
{
    if (error)
        *error = why;
    return false;
}

} // namespace

bool saveWidgetPicture(QWidget* widget, const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(error, QObject::tr("a picture is saved as .png or .svg, not as \"%1\"").arg(suffix));
    if (!widget || widget->size().isEmpty())
        return fail(error, QObject::tr("the view has no size: there is nothing on screen to save"));

    // A structure view's own buttons (Fit, Follow) are for the screen, not
    // for the slide: left out of the picture, and back at once.
    std::vector<QWidget*> controls;
    if (qobject_cast<StructureView*>(widget)) {
        const auto buttons = widget->findChildren<QAbstractButton*>(QString(), Qt::FindDirectChildrenOnly);
        for (QAbstractButton* b : buttons)
            if (b->isVisible()) {
                b->hide();
                controls.push_back(b);
            }
    }
    struct ShowAgain {
        std::vector<QWidget*>& controls;
        ~ShowAgain()
        {
            for (QWidget* w : controls)
                w->show();
        }
    } showAgain { controls };

    // Encoded in memory first, then written whole (writeFileAtomically).
    QBuffer encoded;
    encoded.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("png")) {
        const QPixmap pixels = widget->grab();
        if (pixels.isNull() || !pixels.save(&encoded, "PNG"))
            return fail(error, QObject::tr("the picture could not be encoded as PNG"));
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&encoded);
        svg.setSize(widget->size());
        svg.setViewBox(widget->rect());
        // The widget lays its text out at the screen's resolution; the
        // generator's 72 dpi would shrink every font against the shapes.
        const QScreen* screen = widget->screen() ? widget->screen() : QGuiApplication::primaryScreen();
        svg.setResolution(screen ? qRound(screen->logicalDotsPerInch()) : 96);
        svg.setTitle(widget->windowTitle().isEmpty() ? QObject::tr("Page Cache Lab") : widget->windowTitle());
        svg.setDescription(QObject::tr("A view of Page Cache Lab, as it was on screen"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(error, QObject::tr("the SVG generator could not start"));
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
        painter.end();
    }
    return writeFileAtomically(path, encoded.data(), error);
}

} // namespace pcl::ui
