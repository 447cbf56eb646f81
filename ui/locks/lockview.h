// The Locks view: the run's lock statistics as a live, sortable, filterable
// table in lockstat's terms, per lock or per lock class, rows shaded by how
// much of the contention they carry, with a one-line summary under it.
//
// It reads the registry of the Simulation at most kRefreshPerSecond times a
// second (the table is for reading, not for animation, and a refresh walks
// every lock), and once more when a run ends so that the last numbers stay.
// Selecting a row names the lock to the other views (lockSelected); they
// name one back with selectLock().
#pragma once

#include "locks/locktablemodel.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace pcl::ui {

class Simulation;

class LockView : public QWidget {
    Q_OBJECT
public:
    /// Refreshes per second at most while a run goes on.
    static constexpr int kRefreshPerSecond = 5;

    explicit LockView(Simulation& simulation, QWidget* parent = nullptr);

    LockTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }

    LockTableModel::Mode mode() const { return model_->mode(); }
    void setMode(LockTableModel::Mode mode);
    /// Shows only rows whose name or class contains @text (any case).
    void setFilterText(const QString& text);

    /// The lock (or class, per class) selected, "" if none.
    QString selectedLock() const;
    /// The summary line under the table, as shown.
    QString summaryText() const;

    /// Writes the rows shown (filtered, in the order shown, the columns
    /// shown) as CSV with raw values (ns, counts) to @path, atomically.
    /// Returns false and sets @error if it could not.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

public Q_SLOTS:
    /// Reads the registry now (the throttle's work; tests call it directly).
    void refresh();
    /// Selects the row of the lock named @name ("" clears the selection)
    /// and marks it as the one pointed at: drawn in its contention shade,
    /// bold and framed, never in the selection colour, until the user
    /// selects another row. Per class, a lock's name selects its class.
    /// Does not emit lockSelected.
    void selectLock(const QString& name);
    /// Asks for a file and exports the table there.
    void exportCsvInteractive();

Q_SIGNALS:
    /// The user selected the row of @name (a lock, or a class per class); "" on deselect.
    void lockSelected(const QString& name);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void onTicked();
    void onRunReset();
    void onSelectionChanged();
    void updateColumns();
    void updateSummary();
    void showSummary();
    void updateSegments();
    void updateEmptyState();

    Simulation& sim_;
    LockTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QButtonGroup* modeGroup_;
    QToolButton* perLock_;
    QToolButton* perClass_;
    QLineEdit* filter_;
    QCheckBox* showIdle_;
    QToolButton* export_;
    QStackedWidget* stack_;
    QLabel* empty_;
    QTableView* table_;
    QLabel* summary_;
    QString summaryFull_; ///< the summary line before eliding to the width
    QTimer pending_;      ///< a refresh deferred by the throttle
    QElapsedTimer lastRefresh_;
    bool sized_ = false;         ///< columns fitted to the first rows of this mode
    bool selecting_ = false;     ///< a programmatic selection: not the user's
    bool dropSelection_ = false; ///< the selected row is being removed
    QString lastEmitted_;
};

} // namespace pcl::ui
