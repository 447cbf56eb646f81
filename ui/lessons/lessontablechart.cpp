#include "lessons/lessontablechart.h"

#include "charts/chartstyle.h"
#include "lesson/figure_text.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace pcl::ui {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// One curve: @values at @cpus, those that were measured, divided by
/// @unit (a thousand, when the figures run into hundreds of thousands).
QLineSeries* curve(
    const QString& name, const std::vector<unsigned>& cpus, const std::vector<double>& values, double unit)
{
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPointsVisible(true);
    for (std::size_t i = 0; i < cpus.size() && i < values.size(); ++i)
        if (std::isfinite(values[i]))
            s->append(cpus[i], values[i] / unit);
    return s;
}

} // namespace

LessonTableChart::LessonTableChart(QWidget* parent)
    : QWidget(parent)
    , layout_(nullptr)
{
    setObjectName(QStringLiteral("lessonTableChart"));
    // In a dock shorter than a chart and its words (the verdicts under the
    // views of a 720-line screen), they scroll rather than overlap.
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget;
    layout_ = new QVBoxLayout(content);
    layout_->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    hide();
}

void LessonTableChart::setTables(const std::vector<TableResult>& tables)
{
    for (QChartView* c : charts_)
        delete c;
    for (QLabel* l : notes_)
        delete l;
    charts_.clear();
    notes_.clear();
    for (const TableResult& r : tables) {
        auto* chart = new QChart;
        chart->setTitle(q(r.table.title));
        double top = 0;
        for (std::size_t k = 0; k < r.table.series.size() && k < r.ours.size(); ++k) {
            for (double v : r.table.series[k].thread)
                top = std::max(top, v);
            for (double v : r.ours[k])
                if (std::isfinite(v))
                    top = std::max(top, v);
        }
        // Figures of hundreds of thousands read as thousands on the axis.
        const double unit = top >= 10000 ? 1000 : 1;
        int colour = 0;
        for (std::size_t k = 0; k < r.table.series.size() && k < r.ours.size(); ++k) {
            const QString label = q(r.labels[k]);
            // The thread's curve dashed, ours solid, in one colour a run.
            if (!r.table.series[k].thread.empty()) {
                QLineSeries* thread
                    = curve(tr("%1, in the thread").arg(label), r.table.cpus, r.table.series[k].thread, unit);
                chart->addSeries(thread);
                setSeriesColour(thread, colour);
                QPen pen = thread->pen();
                pen.setStyle(Qt::DashLine);
                thread->setPen(pen);
            }
            QLineSeries* ours = curve(tr("%1, ours").arg(label), r.table.cpus, r.ours[k], unit);
            chart->addSeries(ours);
            setSeriesColour(ours, colour);
            ++colour;
        }
        // The CPUs double along the axis, as the thread's table does.
        auto* x = new QLogValueAxis;
        x->setBase(2);
        x->setLabelFormat(QStringLiteral("%g"));
        x->setRange(r.table.cpus.empty() ? 1 : r.table.cpus.front() * 0.8,
            r.table.cpus.empty() ? 2 : r.table.cpus.back() * 1.25);
        x->setMinorTickCount(0);
        x->setTitleText(tr("threads, one a CPU of a modelled %1").arg(q(r.machine_title)));
        auto* y = new QValueAxis;
        y->setRange(0, top > 0 ? top * 1.05 / unit : 1);
        y->applyNiceNumbers();
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTitleText(unit == 1 ? q(r.unit) : tr("thousand %1").arg(q(r.unit)));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
        chart->legend()->setAlignment(Qt::AlignBottom);
        auto* view = new QChartView(chart);
        view->setObjectName(QStringLiteral("lessonTable_%1").arg(charts_.size()));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(fontMetrics().height() * 16);
        layout_->addWidget(view, 1);
        charts_.push_back(view);
        // The comparison in words: where each curve peaks, how far it falls.
        QStringList lines;
        for (const std::string& line : table_shape(r)) {
            QString sentence = q(line);
            sentence[0] = sentence[0].toUpper();
            lines << sentence;
        }
        auto* note = new QLabel(tr("Dashed: %1's figures (%2). Solid: ours, one run a point on the modelled machine, "
                                   "the same on every computer. %3.")
                                    .arg(q(r.table.by), q(r.table.source), lines.join(QStringLiteral(". "))));
        note->setWordWrap(true);
        note->setObjectName(QStringLiteral("lessonTableNote_%1").arg(notes_.size()));
        layout_->addWidget(note);
        notes_.push_back(note);
    }
    restyle();
    setVisible(!tables.empty());
}

void LessonTableChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        restyle();
}

void LessonTableChart::restyle()
{
    for (QChartView* v : charts_)
        styleChart(v->chart(), palette());
}

} // namespace pcl::ui
