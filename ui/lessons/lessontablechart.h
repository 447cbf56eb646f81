// A thread's table beside ours, drawn (lesson/lesson_table.h): for each CPU
// count, the thread's figure and the same run's on the modelled machine,
// as two curves on one chart with the CPUs doubling along the bottom, so a
// class sees where each peaks and how far it falls after. Under the chart,
// that comparison in words.
#pragma once

#include "lesson/lesson_table.h"

#include <QWidget>

#include <vector>

class QLabel;
class QVBoxLayout;

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace pcl::ui {

class LessonTableChart : public QWidget {
    Q_OBJECT
public:
    explicit LessonTableChart(QWidget* parent = nullptr);

    /// Draws @tables, a chart each; none hides the widget.
    void setTables(const std::vector<TableResult>& tables);
    /// The charts drawn, in the tables' order.
    const std::vector<QChartView*>& charts() const { return charts_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void restyle();

    QVBoxLayout* layout_;
    std::vector<QChartView*> charts_;
    std::vector<QLabel*> notes_;
};

} // namespace pcl::ui
