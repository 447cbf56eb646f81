// The run page: one run on screen and everything that shows it. The CPU
// timeline and the structure views in the centre, the charts, parameters,
// locks, log and a lesson's panels in docks of the window, the run's
// toolbar; and, since it holds the results, what File > Export and View >
// Save picture of this view save. The window holds the pages and takes its
// Export menu from this one.
#pragma once

#include "kit/savefile.h"
#include "run/simulation.h"

#include <QWidget>

#include <map>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QTabWidget;

namespace pcl::ui {

class LessonPanel;
class RunToolBar;
class TornPteView;

class RunPage : public QWidget {
    Q_OBJECT
public:
    /// What File > Export saves, one action each.
    enum class Export {
        ReportHtml, ///< the report: the run's figures, charts and lock table, a lesson's steps and verdicts
        ReportPdf,  ///< the same report as a PDF, for print
        Result,     ///< the run's result JSON, as `pagecache-lab-cli run --json` writes it
        TimeSeries, ///< the metrics, one row per sample (timeseries.csv of `run --out`)
        Locks,      ///< the lock table, one row per lock and per class (locks.csv of `run --out`)
        Trace,      ///< the events as a Chrome trace for Perfetto (trace.json of `run --out`)
        Scenario,   ///< the scenario as it is set now, to open again or run from the command line
    };
    static constexpr Export kExports[]
        = { Export::Result, Export::TimeSeries, Export::Locks, Export::Trace, Export::Scenario };

    /// Builds the page for @window: its toolbar and docks go into the
    /// window, which shows and hides them with the page (setShown).
    explicit RunPage(QMainWindow& window, QWidget* parent = nullptr);
    /// The views, docks and toolbar watch the run: they go before it.
    ~RunPage() override;

    Simulation& simulation() { return sim_; }
    RunToolBar* runToolBar() const { return toolBar_; }
    LessonPanel* lessonPanel() const { return lessonPanel_; }
    /// The docks, by object name ("locksDock", ...).
    QList<QDockWidget*> docks() const { return docks_; }
    QDockWidget* lessonDock() const { return lessonDock_; }
    QDockWidget* chartsDock() const { return chartsDock_; }
    /// The torn PTE picture, a tab of the centre beside the lesson that uses it.
    TornPteView* tornPte() const { return tornPte_; }

    /// Brings a centre view to the front: "cpus" (the timeline), "radix",
    /// "hash", "skiplist", "readahead" or "pagetable". False for another name.
    bool showView(const QString& name);
    /// The names showView() accepts, in tab order.
    QStringList viewNames() const;
    /// The centre view in front.
    QWidget* currentView() const;
    /// Whether the tab of the centre view @name can be chosen: a structure
    /// view of an index the run does not use is disabled, its tab's tooltip
    /// saying why (tabToolTip).
    bool viewEnabled(const QString& name) const;
    QString tabToolTip(const QString& name) const;

    /// Hides the lesson's docks: a scenario opened on its own.
    void hideLessonDocks();
    /// Shows the docks and the centre's tabs of the lesson open, if any:
    /// the lesson beside the views, the verdict once measured, the
    /// measurements for a lesson that makes some, the torn PTE picture for
    /// a lesson that walks it.
    void showLessonDocks();

    /// File > Export's actions, in the menu's order, with separators
    /// between the groups; each action's enabled state and tooltip follow
    /// the run.
    QList<QAction*> exportActions() const { return exportMenu_; }
    /// File > Export's action for @kind.
    QAction* exportAction(Export kind) const { return exportActions_.at(kind); }
    /// View > Save picture of this view, enabled while the page is shown.
    QAction* savePictureAction() const { return savePictureAction_; }
    /// Told by the window as it brings the page to the front (true) or
    /// shows another (false): the toolbar shows with the page, the docks
    /// hide with it (the window lays them out again when it comes back),
    /// and only a page in front has a view to picture.
    void setShown(bool shown);
    /// The name @kind is offered under: the run's file stem (the preset's
    /// or the lesson's name) and what the file is ("..._result.json").
    QString exportFileName(Export kind) const;
    /// Why @kind cannot be exported now (no scenario, nothing measured
    /// yet), in words for the action's tooltip; empty when it can.
    QString exportUnavailable(Export kind) const;
    /// What @kind is, in words for a message ("the run's result").
    static QString exportWhat(Export kind);
    /// Writes @kind to @path, asking before it replaces a file (kit's
    /// mayReplace). Exporting a run that is playing pauses it, so that the
    /// figures hold still. @error says why when it fails.
    SaveResult exportTo(Export kind, const QString& path, QString* error = nullptr);
    /// Writes a picture of the view in front, as it is on screen, to @path
    /// (PNG or SVG by the extension), as exportTo asks and fails.
    SaveResult saveViewPicture(const QString& path, QString* error = nullptr);
    /// The name a picture of the view in front is offered under: the run's
    /// file stem and the view's tab ("..._hash-table.png").
    QString viewPictureFileName() const;

public Q_SLOTS:
    /// File > Export: asks where, then exports @kind (exportTo).
    void exportAs(pcl::ui::RunPage::Export kind);
    /// View > Save picture of this view: asks where, then saves it.
    void saveViewPictureAs();

private:
    /// The centre's views, the docks, and what a lesson's steps bring
    /// forward and outline in them.
    void createViewsAndDocks();
    void createExportActions();
    QDockWidget* addDock(QWidget* view, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    /// Enables the centre's index tabs that apply to the current run and
    /// disables the others, with a tooltip that says why.
    void updateViewTabs();
    /// The centre's tab showing @name; -1 if none.
    int tabOf(const QString& name) const;
    /// The status bar's note on a replayed trace: what it is and how many
    /// bad lines were skipped.
    void updateTraceNote();
    /// Enables the export actions that have something to save, and says
    /// in the tooltip of the others why not.
    void updateExportActions();

    QMainWindow& window_;
    Simulation sim_;
    RunToolBar* toolBar_ = nullptr;
    QTabWidget* views_ = nullptr; ///< the centre: the timeline and the structure views
    TornPteView* tornPte_ = nullptr;
    QLabel* machineNote_ = nullptr;
    class RewindBar* rewindBar_ = nullptr;
    QLabel* traceNote_ = nullptr; ///< permanent in the status bar while a trace is replayed
    QList<QDockWidget*> docks_;
    LessonPanel* lessonPanel_ = nullptr;
    QString pendingLock_; ///< the lock a lesson's step outlines, until its row exists
    QDockWidget* lessonDock_ = nullptr;
    QDockWidget* chartsDock_ = nullptr;
    QDockWidget* verdictDock_ = nullptr;
    QDockWidget* measurementsDock_ = nullptr;
    std::map<Export, QAction*> exportActions_;
    QList<QAction*> exportMenu_; ///< exportActions_ in the menu's order, with separators
    QAction* savePictureAction_ = nullptr;
    bool shown_ = false;
};

} // namespace pcl::ui
