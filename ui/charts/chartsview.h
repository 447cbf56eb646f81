// The Charts view: the run's metrics as live time series (operations/s,
// faults/s by kind, lock wait, hit ratio, and whatever else the reader
// picks), the fault latency histogram and the lock wait by class, each
// exportable for a report as PNG (at a resolution chosen for the screen,
// print or a poster), SVG or PDF, captioned with the scenario and its key
// parameters; and the series as CSV.
//
// The x axis of every time series is the whole run, shared by all charts so
// they line up: a run is a demonstration or an experiment of seconds to
// minutes, and a report wants all of it. Each series keeps at most
// kMaxPointsPerSeries points (older ones merged in pairs as the run grows),
// so a sample costs O(1) amortised however long the run. The histograms
// are re-read at most twice a second.
#pragma once

#include <QElapsedTimer>
#include <QStringList>
#include <QWidget>

#include <map>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QGridLayout;
class QMenu;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace pcl {
struct MetricsSample;
}

namespace pcl::ui {

enum class SaveResult;
class FaultLatencyChart;
class LockWaitChart;
class Simulation;
class TimeSeriesChart;

class ChartsView : public QWidget {
    Q_OBJECT
public:
    static constexpr std::size_t kMaxPointsPerSeries = 1000;
    /// Histogram refreshes per second at most.
    static constexpr int kHistogramRefreshMs = 500;
    /// Ids of the two histogram charts (the time series use ChartSpec ids).
    static const QString kFaultLatencyId;
    static const QString kLockWaitId;

    explicit ChartsView(Simulation& simulation, QWidget* parent = nullptr);

    /// Every chart id, in display order.
    QStringList chartIds() const { return order_; }
    /// The ids of the charts shown.
    QStringList shownCharts() const;
    void setChartShown(const QString& id, bool shown);
    bool isChartShown(const QString& id) const;

    QChart* chart(const QString& id) const;
    TimeSeriesChart* timeSeries(const QString& id) const;
    FaultLatencyChart* faultLatency() const { return faultLatency_; }
    LockWaitChart* lockWait() const { return lockWait_; }
    /// A chart's margins and padding either side of its title.
    static constexpr int kTitleRoom = 48;
    /// How many columns the charts are laid out in (1 or 2).
    int columns() const { return columns_; }
    /// The upper end of the shared time axis.
    double timeRange() const { return timeMax_; }

    /// The PNG resolutions the chart menu offers, as multiples of the
    /// export size (kExportSize): screen, print, poster.
    static constexpr int kPngScales[] = { 1, 2, 4 };
    /// The name a saved chart is offered under: the run's file stem and
    /// what the chart shows ("2002-global-hash-lock_lock-wait.svg").
    QString chartFileName(const QString& id, const QString& suffix) const;
    /// The line under an exported chart: the scenario's title and its key
    /// parameters, so a figure cut out of a report still says what ran.
    QString chartCaption() const;
    /// Saves chart @id to @path (PNG, SVG or PDF by the extension; a PNG at
    /// @pngScale times the export size), captioned, asking before it
    /// replaces a file (mayReplace). @error says why when it fails.
    SaveResult saveChart(const QString& id, const QString& path, int pngScale, QString* error);
    /// Saves the time series as CSV to @path, as saveChart asks and fails.
    SaveResult saveData(const QString& path, QString* error);

public Q_SLOTS:
    /// Shows samples, oldest first (one, a modelled slice's, or the run so
    /// far when the view opens or the run was taken back).
    void addSamples(const std::vector<pcl::MetricsSample>& samples);
    /// Drops every point and bar (a new run).
    void clear();
    /// Re-reads the histograms now.
    void refreshHistograms();

    /// No narrower than the widest title of the charts shown.
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QChartView* addChart(const QString& id, QChart* chart);
    void relayout();
    /// Two columns at @width, or one.
    int columnsFor(int width) const;
    /// The least width of a column: the widest title shown, and room for a
    /// legend (kColumnChars characters), in the charts' font now.
    int columnWidthNeeded() const;
    static constexpr int kColumnChars = 56;
    int columns_ = 2;
    void extendTimeRange(double seconds);
    void restyle();
    void showChartMenu(const QString& id, const QPoint& globalPos);
    /// Asks where, then saves (saveChart, saveData); says why it failed.
    void saveChartAs(const QString& id, const QString& suffix, int pngScale);
    void saveDataAs();
    void onTicked();

    Simulation& sim_;
    QPushButton* picker_;
    QPushButton* csv_ = nullptr;
    QLabel* hint_ = nullptr; ///< how to save a chart, shown where the bar has room for it
    QMenu* pickerMenu_;
    QWidget* grid_;
    QGridLayout* gridLayout_;
    QStringList order_;
    std::map<QString, QChartView*> views_;
    std::map<QString, bool> shown_;
    std::vector<TimeSeriesChart*> timeSeries_;
    FaultLatencyChart* faultLatency_;
    LockWaitChart* lockWait_;
    double timeMax_ = 0;
    QElapsedTimer sinceHistograms_;
};

} // namespace pcl::ui
