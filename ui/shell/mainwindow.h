// The main window: a stack of pages, the gallery of experiments on start
// and, once a scenario or a lesson is open, the run page (shell/runpage.h:
// the run's toolbar, views and docks, movable, closable, restored on the
// next start); the menus, File > Export taken from the run page, which
// holds the results; presentation mode and the zoom.
#pragma once

#include "run/scenariolibrary.h"
#include "shell/dockzoom.h"
#include "shell/runpage.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QMenu;
class QScrollArea;
class QStackedWidget;
class QToolBar;

namespace pcl::ui {

class AboutDialog;
class CompareWindow;
class KeyRouting;
class StepCaption;
class WelcomePage;
class Zoom;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

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
    /// The run page: the run, its views and docks, and its exports.
    RunPage* runPage() const { return runPage_; }
    /// The run page's run and lesson panel.
    Simulation& simulation() { return runPage_->simulation(); }
    LessonPanel* lessonPanel() const { return runPage_->lessonPanel(); }
    /// The gallery, or the run of the open scenario.
    void showGallery();
    void showRun();
    bool showingRun() const;
    QAction* quitAction() const { return quitAction_; }
    QAction* aboutAction() const { return aboutAction_; }
    QAction* openAction() const { return openAction_; }
    QAction* saveAction() const { return saveAction_; }
    WelcomePage* welcomePage() const { return welcome_; }
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
    void updateRecentMenu();
    void updateTitle();

    QStackedWidget* stack_;
    QScrollArea* galleryPage_;
    WelcomePage* welcome_;
    RunPage* runPage_ = nullptr;
    DockZoom::Layout runDockState_; ///< dock layout while the gallery hides the docks
    QMenu* recentMenu_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
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
