// The Log view: a filterable stream of the notable events of the run, in
// words ("CPU 2 waited 1.31 ms for mapping[0].tree_lock, held by CPU 0"),
// for a dock.
//
// Above the lines: which kinds to show (a menu of checkable kinds, notable
// ones at first), a text filter, "Follow" (keep the newest in view; scrolling
// up stops it, scrolling back to the bottom resumes it) and how many events
// the run recorded and how many never reached the log. Each tick's batch
// goes to EventLogModel, whose work per tick is bounded; the view only
// scrolls. A new run clears the log.
#pragma once

#include "log/eventlogmodel.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QMenu;
class QToolButton;
class QTreeView;

namespace pcl::ui {

class Simulation;

class EventLogView : public QWidget {
    Q_OBJECT
public:
    enum class ExportFormat { Text, Csv };

    explicit EventLogView(Simulation& simulation, QWidget* parent = nullptr);

    EventLogModel* model() const { return model_; }
    QTreeView* view() const { return view_; }

    /// Whether the view keeps the newest line in sight.
    bool follows() const { return follow_; }
    void setFollow(bool follow);

    /// Sets the text filter (the lock selected in the Locks view).
    void setFilterText(const QString& text);

    /// "shown N · recorded M · dropped D", as the counter shows it.
    QString counterText() const;

    /// Writes the shown lines to @path atomically (QSaveFile). On failure
    /// returns false and says why in @error.
    bool exportTo(const QString& path, ExportFormat format, QString* error = nullptr) const;
    /// Copies the selected lines (all shown lines if none is selected) as text.
    void copySelection() const;

private:
    void onRunReset();
    void onEventsArrived(const std::vector<pcl::Event>& events);
    void updateCounter();
    void updateKindsButton();
    void updateEmptyHint();
    void buildKindsMenu();
    void setKinds(LineKindMask kinds);
    void scrollToNewest();
    void showContextMenu(const QPoint& pos);
    void exportWithDialog();
    bool eventFilter(QObject* watched, QEvent* event) override;

    Simulation& sim_;
    EventLogModel* model_;
    QTreeView* view_;
    QToolButton* kindsButton_;
    QMenu* kindsMenu_;
    QLineEdit* filter_;
    QToolButton* followButton_;
    QLabel* counter_;
    QLabel* emptyHint_;
    bool follow_ = true;
    bool scrolling_ = false; ///< the view is scrolling itself: not the user leaving the bottom
};

} // namespace pcl::ui
