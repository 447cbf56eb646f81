#include "lessons/proberesultsview.h"

#include "kit/colors.h"
#include "lesson/figure_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace pcl::ui {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

ProbeResultsView::ProbeResultsView(QWidget* parent)
    : QWidget(parent)
    , caption_(new QLabel(this))
    , table_(new QTableWidget(this))
{
    setObjectName(QStringLiteral("probe"));
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    table_->setObjectName(QStringLiteral("probeResults"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(true);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Large enough to read from the back of a lecture room.
    QFont f = table_->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    table_->setFont(f);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
    caption_->setText(tr("No lesson measures the structures themselves yet: open one from the gallery."));
}

void ProbeResultsView::setLesson(const Lesson& lesson)
{
    runs_.clear();
    probes_.clear();
    rows_.clear();
    current_.clear();
    for (const LessonRun& r : lesson.runs) {
        // The runs the steps measure; a run only a claim measures is in the
        // verdict table.
        const bool stepped = std::any_of(
            lesson.steps.begin(), lesson.steps.end(), [&](const LessonStep& s) { return s.run == r.name; });
        if (!r.is_probe() || !stepped)
            continue;
        runs_.push_back(r.name);
        probes_.push_back(r.probe);
        const LessonProbe* probe = find_lesson_probe(r.probe);
        if (!probe)
            continue;
        // One row per figure, a probe's figures once however many runs use it.
        if (std::none_of(rows_.begin(), rows_.end(), [&](const Row& row) { return row.probe == r.probe; }))
            for (const ProbeFigure& f : probe->figures)
                rows_.push_back({ r.probe, f });
    }
    // Column 0 says what each row is; column 1 + k is run k.
    table_->clear();
    table_->setColumnCount(int(runs_.size()) + 1);
    table_->setRowCount(int(rows_.size()));
    QStringList columns { tr("What is measured") };
    for (const std::string& name : runs_)
        columns << q(lesson.find_run(name)->label);
    table_->setHorizontalHeaderLabels(columns);
    for (int c = 1; c < table_->columnCount(); ++c)
        table_->horizontalHeaderItem(c)->setToolTip(columns[c]);
    for (int i = 0; i < int(rows_.size()); ++i) {
        const ProbeFigure& f = rows_[std::size_t(i)].figure;
        auto* what = new QTableWidgetItem(q(f.meaning));
        what->setToolTip(q(f.meaning));
        table_->setItem(i, 0, what);
        for (int c = 1; c < table_->columnCount(); ++c)
            table_->setItem(i, c, new QTableWidgetItem);
    }
    table_->verticalHeader()->hide();
    // A run's label is a phrase ("four 64-way trees, 16 dense files"):
    // wrapped over four lines rather than cut.
    table_->horizontalHeader()->setDefaultAlignment(Qt::Alignment(Qt::AlignCenter | Qt::TextWordWrap));
    table_->horizontalHeader()->setMinimumHeight(4 * table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    table_->setColumnWidth(0, 300);
    table_->resizeRowsToContents();
    caption_->setText(runs_.empty()
            ? tr("This lesson measures the running machine only: its figures are in the charts and the lock table.")
            : tr("%1: each column is one measurement of the real structures (not of the simulated machine), made "
                 "on this machine in the quick form when its step opens. The step's own column is outlined; the "
                 "others keep what they measured, so that they can be compared.")
                  .arg(q(lesson.title)));
}

int ProbeResultsView::columnOf(const std::string& run) const
{
    const auto it = std::find(runs_.begin(), runs_.end(), run);
    return it == runs_.end() ? -1 : 1 + int(it - runs_.begin());
}

void ProbeResultsView::setFigures(const std::string& run, const ProbeFigures& figures)
{
    const int c = columnOf(run);
    if (c < 0)
        return;
    for (int i = 0; i < int(rows_.size()); ++i) {
        const Row& row = rows_[std::size_t(i)];
        QTableWidgetItem* item = table_->item(i, c);
        const auto it = figures.find(row.figure.name);
        if (row.probe != probes_[std::size_t(c - 1)] || it == figures.end()) {
            item->setText(QString());
            continue;
        }
        // "1 read", "14,201,502 bytes", "1,287 µs / call": as the verdicts
        // write a figure.
        item->setText(q(figure_text(it->second, row.figure.unit)));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    table_->resizeRowsToContents();
    outline();
}

void ProbeResultsView::setCurrent(const std::string& run)
{
    current_ = run;
    outline();
}

void ProbeResultsView::outline()
{
    const int current = columnOf(current_);
    const QColor tint = colors::mix(palette().color(QPalette::Base), palette().color(QPalette::Highlight), 0.18);
    for (int c = 1; c < table_->columnCount(); ++c) {
        QFont bold = table_->font();
        bold.setBold(c == current);
        if (QTableWidgetItem* h = table_->horizontalHeaderItem(c))
            h->setFont(bold);
        for (int r = 0; r < table_->rowCount(); ++r)
            if (QTableWidgetItem* item = table_->item(r, c)) {
                item->setBackground(c == current ? QBrush(tint) : QBrush());
                item->setFont(bold);
            }
    }
}

} // namespace pcl::ui
