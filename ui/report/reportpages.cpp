#include "report/reportpages.h"

#include "charts/chartexport.h"
#include "report/reportcharts.h"
#include "report/reportmarkup.h"
#include "sim/run_result.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextObjectInterface>
#include <QTextTable>
#include <QXmlStreamWriter>

#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::RunReport", text);
}

/// The page's pixels: 96 to the inch, as a screen's, so the charts' fonts
/// (in points) and the text's keep the proportions they have on screen.
constexpr int kDpi = 96;
/// A chart's figure on paper, in logical pixels: a little narrower than a
/// file's, so that its labels, scaled down to the text's width, stay
/// readable, yet wide enough for a histogram's thirty buckets' labels.
constexpr QSize kPageFigure { 1100, 560 };
/// The band under the text that holds the page's footer.
constexpr double kFooterHeight = 26;

/// Layouts at most, each moving one cut row to the next page.
constexpr int kMaxPasses = 40;

constexpr int kChartObject = QTextFormat::UserObject + 1;
constexpr int kChartIndex = QTextFormat::UserProperty + 1;
const QString kChartScheme = QStringLiteral("chart:");

/// Draws the report's charts where the text holds them.
class ChartObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    ChartObject(const std::vector<ReportChart>& charts, const ChartExportOptions& options)
        : charts_(charts)
        , options_(options)
    {
    }

    QSizeF intrinsicSize(QTextDocument*, int, const QTextFormat& format) override
    {
        return { format.doubleProperty(QTextFormat::ImageWidth), format.doubleProperty(QTextFormat::ImageHeight) };
    }

    /// The part of the document on the page being printed: the layout also
    /// asks for a chart whose block starts on this page but whose figure
    /// moved whole to the next.
    void setPage(const QRectF& page) { page_ = page; }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const int index = format.intProperty(kChartIndex);
        if (index < 0 || std::size_t(index) >= charts_.size() || !page_.contains(rect.center()))
            return;
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / options_.size.width(), rect.height() / options_.size.height());
        renderChart(charts_[std::size_t(index)].chart.get(), painter, options_);
        painter->restore();
    }

private:
    const std::vector<ReportChart>& charts_;
    ChartExportOptions options_;
    QRectF page_;
};

/// Turns each image the markup placed for a chart ("chart:N") into a chart
/// object of the same size.
void placeCharts(QTextDocument& doc)
{
    QTextCursor cursor(&doc);
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            const QTextImageFormat image = fragment.charFormat().toImageFormat();
            if (!image.name().startsWith(kChartScheme))
                continue;
            QTextCharFormat chart = image;
            chart.setObjectType(kChartObject);
            chart.setProperty(kChartIndex, image.name().mid(kChartScheme.size()).toInt());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(chart);
        }
    }
}

/// The first table row that runs across the end of a page, as the markup
/// numbers it (@pieces: each <table> of the document, in order), if any.
/// A row taller than a page cannot be kept whole and is left as it is.
std::optional<TableRow> firstCutRow(QTextDocument& doc, double pageHeight, const std::vector<TableRow>& pieces)
{
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    std::size_t piece = 0;
    const auto frames = doc.rootFrame()->childFrames();
    for (QTextFrame* frame : frames) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table)
            continue;
        if (piece >= pieces.size())
            break;
        const TableRow first = pieces[piece++];
        const int headings = table->format().headerRowCount();
        for (int r = headings; r < table->rows(); ++r) {
            double top = std::numeric_limits<double>::max(), bottom = 0;
            for (int c = 0; c < table->columns(); ++c) {
                const QTextTableCell cell = table->cellAt(r, c);
                top = std::min(top, layout->blockBoundingRect(cell.firstCursorPosition().block()).top());
                bottom = std::max(bottom, layout->blockBoundingRect(cell.lastCursorPosition().block()).bottom());
            }
            if (bottom - top < 0.9 * pageHeight && std::floor(top / pageHeight) != std::floor(bottom / pageHeight))
                return TableRow { first.first, first.second + r - headings };
        }
    }
    return std::nullopt;
}

/// Moves to the next page each heading that would end a page, apart from
/// the text it heads: one in the last quarter of a page, one at a time,
/// as each move shifts what follows.
void keepHeadingsWithText(QTextDocument& doc, double pageHeight)
{
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        bool moved = false;
        for (QTextBlock block = doc.begin(); block.isValid() && !moved; block = block.next()) {
            QTextBlockFormat format = block.blockFormat();
            if (format.headingLevel() == 0 || format.pageBreakPolicy() != QTextFormat::PageBreak_Auto)
                continue;
            const double top = layout->blockBoundingRect(block).top();
            if (std::fmod(top, pageHeight) < 0.75 * pageHeight)
                continue;
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            QTextCursor(block).setBlockFormat(format);
            doc.markContentsDirty(0, doc.characterCount());
            moved = true;
        }
        if (!moved)
            return;
    }
}

} // namespace

int printReport(const ReportSubject& subject, QIODevice* device, QString* error)
{
    const std::vector<ReportChart> charts = subject.run ? buildRunCharts(*subject.run) : std::vector<ReportChart> {};
    ChartExportOptions options;
    options.size = kPageFigure;
    options.caption = subject.run ? runCaption(*subject.run) : QString();

    QPdfWriter pdf(device);
    pdf.setResolution(kDpi);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(16, 14, 16, 10), QPageLayout::Millimeter);
    const QString title = reportTitle(subject);
    pdf.setTitle(title);
    pdf.setCreator(tr("Page Cache Lab"));
    const QRectF paper = pdf.pageLayout().paintRectPixels(kDpi);
    const QSizeF body(paper.width(), paper.height() - kFooterHeight);

    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&pdf);
    doc.setDocumentMargin(0);
    doc.setPageSize(body);
    ChartObject objects(charts, options);
    doc.documentLayout()->registerHandler(kChartObject, &objects);
    const double figureHeight = body.width() * kPageFigure.height() / kPageFigure.width();
    const FigureWriter figure = [&](QXmlStreamWriter& xml, const ReportChart&, int index, QString*) {
        xml.writeStartElement(QStringLiteral("p"));
        xml.writeAttribute(QStringLiteral("align"), QStringLiteral("center"));
        xml.writeEmptyElement(QStringLiteral("img"));
        xml.writeAttribute(QStringLiteral("src"), kChartScheme + QString::number(index));
        xml.writeAttribute(QStringLiteral("width"), QString::number(int(body.width())));
        xml.writeAttribute(QStringLiteral("height"), QString::number(int(figureHeight)));
        xml.writeEndElement();
        return true;
    };
    // Laid out, then again with each row the pages cut moved to the next
    // page, until none is cut; each time, no heading is left at the foot
    // of a page.
    std::set<TableRow> breaks;
    for (int pass = 0;; ++pass) {
        QString why;
        std::vector<TableRow> pieces;
        const QString markup = reportMarkup(subject, charts, ReportMedium::Pdf, figure, &why, breaks, &pieces);
        if (markup.isEmpty()) {
            if (error)
                *error = why;
            return -1;
        }
        doc.setHtml(markup);
        placeCharts(doc);
        // The layout saw images where the charts now are: lay everything out
        // again, or the blocks after the first chart keep stale positions.
        doc.markContentsDirty(0, doc.characterCount());
        keepHeadingsWithText(doc, body.height());
        const std::optional<TableRow> cut = firstCutRow(doc, body.height(), pieces);
        if (!cut || breaks.count(*cut) || pass == kMaxPasses)
            break;
        breaks.insert(*cut);
    }

    QPainter painter;
    if (!painter.begin(&pdf)) {
        if (error)
            *error = tr("the PDF writer failed");
        return -1;
    }
    const int pages = doc.pageCount();
    QFont footerFont = doc.defaultFont();
    footerFont.setPointSizeF(7.5);
    for (int page = 0; page < pages; ++page) {
        if (page > 0)
            pdf.newPage();
        painter.save();
        const QRectF slice(0, page * body.height(), body.width(), body.height());
        painter.translate(0, -slice.top());
        painter.setClipRect(slice);
        objects.setPage(slice);
        doc.drawContents(&painter, slice);
        painter.restore();

        painter.setFont(footerFont);
        painter.setPen(QColor(0x70, 0x70, 0x70));
        painter.drawLine(QPointF(0, body.height() + 6), QPointF(body.width(), body.height() + 6));
        const QRectF footer(0, body.height() + 8, body.width(), kFooterHeight - 8);
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter, tr("Page Cache Lab: %1").arg(title));
        painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, tr("page %1 of %2").arg(page + 1).arg(pages));
    }
    painter.end();
    return pages;
}

} // namespace pcl::ui

#include "reportpages.moc"
