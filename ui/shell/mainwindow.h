// The main window: the gallery of experiments on start; once a scenario is
// open, the run controls in the toolbar, the views in the centre and in
// docks (movable, closable, restored on the next start), and the menus.
#pragma once

#include "kit/savefile.h"
#include "run/scenariolibrary.h"
#include "run/simulation.h"
#include "shell/dockzoom.h"

#include <QMainWindow>

#include <map>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QStackedWidget;
class QTabWidget;
class QToolBar;

namespace pcl::ui {

class AboutDialog;
class CompareWindow;
class KeyRouting;
class LessonPanel;
class LockView;
class RunToolBar;
class StepCaption;
class TornPteView;
class WelcomePage;
class Zoom;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

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

    /// Restores the geometry and dock layout saved when a main window was
    /// last closed (moved onto a screen if that screen is gone). Returns
    /// false, leaving the default size, if nothing valid was saved.
    bool restoreSettings();
    /// Saves geometry and dock layout (QSettings, "MainWindow/..."); called on close.
    void saveSettings() const;
    /// Whether closing the window saves its geometry (default true). Scripted
    /// runs (--screenshot, --run-for) turn it off so they leave the user's
    /// settings alone.
    /// The zoom is saved with it.
    void setRememberGeometry(bool remember);
    bool remembersGeometry() const { return rememberGeometry_; }

    /// The size the window opens at when nothing was saved.
    static QSize defaultSize();

    /// Opens a bundled scenario by name or a scenario file, ready to play,
    /// and shows the run. On failure returns false and sets @error (the
    /// message names the file and the field).
    bool openScenario(const QString& presetOrPath, QString* error = nullptr);
    /// Opens a scenario already read (and perhaps changed, e.g. by --set).
    bool openScenario(const ScenarioEntry& entry, QString* error = nullptr);
    /// Opens a bundled lesson by name, or a lesson file, at its first step,
    /// with the lesson beside the views. On failure returns false and sets
    /// @error (the message names the file and the member).
    bool openLesson(const QString& nameOrPath, QString* error = nullptr);
    LessonPanel* lessonPanel() const { return lessonPanel_; }
    /// The gallery, or the run of the open scenario.
    void showGallery();
    void showRun();
    bool showingRun() const;
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

    Simulation& simulation() { return sim_; }
    RunToolBar* runToolBar() const { return toolBar_; }
    QAction* quitAction() const { return quitAction_; }
    QAction* aboutAction() const { return aboutAction_; }
    QAction* openAction() const { return openAction_; }
    QAction* saveAction() const { return saveAction_; }
    /// File > Export's action for @kind.
    QAction* exportAction(Export kind) const { return exportActions_.at(kind); }
    /// View > Save picture of this view.
    QAction* savePictureAction() const { return savePictureAction_; }
    /// The name @kind is offered under: the run's file stem (the preset's
    /// or the lesson's name) and what the file is ("..._result.json").
    QString exportFileName(Export kind) const;
    /// Why @kind cannot be exported now (no scenario, nothing measured
    /// yet), in words for the action's tooltip; empty when it can.
    QString exportUnavailable(Export kind) const;
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
    WelcomePage* welcomePage() const { return welcome_; }
    /// The docks, by object name ("locksDock", ...).
    QList<QDockWidget*> docks() const { return docks_; }
    /// The About dialog once it has been shown, nullptr before.
    AboutDialog* aboutDialog() const { return about_; }

    /// Presentation mode (View > Presentation mode, F11): the window full
    /// screen and the lesson's step as a large caption across its bottom.
    bool presenting() const { return presenting_; }
    QAction* presentationAction() const { return presentationAction_; }
    /// The window's one scale of text and drawing (View > Zoom in, Zoom
    /// out, Actual size), kept in the settings.
    Zoom* zoom() const { return zoom_; }
    QAction* zoomInAction() const { return zoomInAction_; }
    QAction* zoomOutAction() const { return zoomOutAction_; }
    QAction* zoomResetAction() const { return zoomResetAction_; }
    /// The step's caption shown in presentation mode.
    StepCaption* stepCaption() const { return caption_; }

public Q_SLOTS:
    /// Shows Help > About (window-modal; returns at once).
    void showAbout();
    /// File > Open: asks for a scenario file.
    void openFile();
    /// File > Save scenario as: writes the open scenario.
    void saveFile();
    /// File > Export: asks where, then exports @kind (exportTo).
    void exportAs(pcl::ui::MainWindow::Export kind);
    /// View > Save picture of this view: asks where, then saves it.
    void saveViewPictureAs();
    /// Help > User guide.
    void showUserGuide();
    /// File > Compare: a window running two scenarios side by side.
    CompareWindow* showCompare();
    /// Enters or leaves presentation mode.
    void setPresenting(bool on);
    /// What a presentation clicker's Next and Back do: the lesson's next
    /// step or the one before, except in the torn PTE picture, which they
    /// walk operation by operation first (as a slide's animations).
    void presentNext();
    void presentBack();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    /// The caption, the zoom and the keys of presentation mode
    /// (mainwindowpresentation.cpp), and their View menu entries.
    void createPresentation();
    void addPresentationActions(QMenu* view);
    void updateCaption();
    void createRunPage();
    QDockWidget* addDock(QWidget* view, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void updateRecentMenu();
    void updateTitle();
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
    /// What @kind is, in words for a message ("the run's result").
    QString exportWhat(Export kind) const;

    Simulation sim_;
    QStackedWidget* stack_;
    QScrollArea* galleryPage_;
    WelcomePage* welcome_;
    QWidget* runPage_ = nullptr;
    QTabWidget* views_ = nullptr; ///< the centre: the timeline and the structure views
    QLabel* traceNote_ = nullptr; ///< permanent in the status bar while a trace is replayed
    RunToolBar* toolBar_ = nullptr;
    QList<QDockWidget*> docks_;
    LessonPanel* lessonPanel_ = nullptr;
    QString pendingLock_; ///< the lock a lesson's step outlines, until its row exists
    QDockWidget* lessonDock_ = nullptr;
    QDockWidget* chartsDock_ = nullptr;
    QDockWidget* verdictDock_ = nullptr;
    QDockWidget* measurementsDock_ = nullptr;
    TornPteView* tornPte_ = nullptr;
    DockZoom::Layout runDockState_; ///< dock layout while the gallery hides the docks
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* galleryAction_ = nullptr;
    QAction* savePictureAction_ = nullptr;
    std::map<Export, QAction*> exportActions_;
    AboutDialog* about_ = nullptr;
    bool rememberGeometry_ = true;
    Zoom* zoom_ = nullptr;
    std::unique_ptr<DockZoom> dockZoom_; ///< the docks' sizes follow the zoom
    DockZoom::Layout beforePresenting_;  ///< given back on leaving presentation mode
    QSize sizeBeforePresenting_;
    KeyRouting* keys_ = nullptr;
    StepCaption* caption_ = nullptr;
    QToolBar* captionBar_ = nullptr;
    bool presenting_ = false;
    Qt::WindowStates statesBeforePresenting_; ///< maximised or not, to go back to
    QAction* presentationAction_ = nullptr;
    QAction* zoomInAction_ = nullptr;
    QAction* zoomOutAction_ = nullptr;
    QAction* zoomResetAction_ = nullptr;
};

} // namespace pcl::ui
