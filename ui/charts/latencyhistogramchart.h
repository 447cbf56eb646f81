// A latency histogram chart: for each of a few rows (fault kinds, lock
// classes), the share of its samples in each power-of-two bucket of
// nanoseconds, bars side by side per bucket.
//
// Shares, not counts: minor faults outnumber major ones a hundred to one,
// and in counts the major faults' milliseconds would be invisible. Each
// row's legend entry gives its count, so nothing is hidden.
#pragma once

#include <QChart>
#include <QColor>
#include <QString>

#include <cstdint>
#include <vector>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QValueAxis;
QT_END_NAMESPACE

namespace pcl::ui {

class LatencyHistogramChart : public QChart {
    Q_OBJECT
public:
    struct Row {
        QString name;                        ///< legend text, before the count
        QColor color;
        std::vector<std::uint64_t> buckets;  ///< bucket b: samples in [2^b, 2^(b+1)) ns (b = 0 also 0)
    };

    LatencyHistogramChart(const QString& title, const QString& xTitle, const QString& yTitle,
        QGraphicsItem* parent = nullptr);

    /// Shows @rows: one bar set each, over the buckets from the first to
    /// the last non-empty one of any row.
    void setRows(const std::vector<Row>& rows);
    /// Empties the bars (the sets and their names stay).
    void clear();

    /// The bucket label of power-of-two bucket @b: "1–2 µs".
    static QString bucketLabel(unsigned b);
    /// The short label used when many buckets are shown: the lower bound,
    /// number over unit ("16<br>µs").
    static QString lowerBoundLabel(unsigned b);
    /// Buckets shown: the first and one past the last non-empty one.
    unsigned firstBucket() const { return first_; }
    unsigned endBucket() const { return end_; }
    int rowCount() const { return int(sets_.size()); }
    QBarSet* set(int row) const { return sets_[std::size_t(row)]; }

private:
    QBarSeries* series_;
    std::vector<QBarSet*> sets_;
    std::vector<QString> names_; ///< the rows' names, to restore their labels on clear()
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    unsigned first_ = 0;
    unsigned end_ = 0;
};

} // namespace pcl::ui
