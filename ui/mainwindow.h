// The main window: menus, and for now the welcome page as its centre. The
// index view, the docks (locks, CPU timeline, readahead, charts, parameters)
// and the scenario gallery of DESIGN.md are added around it as they are built.
#pragma once

#include <QMainWindow>

class QAction;
class QMenu;

namespace pcl::ui {

class AboutDialog;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Restores the geometry and dock layout saved when a main window was
    /// last closed (moved onto a screen if that screen is gone). Returns
    /// false, leaving the default size, if nothing valid was saved.
    bool restoreSettings();
    /// Saves geometry and dock layout (QSettings, "MainWindow/..."); called on close.
    void saveSettings() const;
    /// Whether closing the window saves its geometry (default true). Scripted
    /// runs (--screenshot, --run-for) turn it off so they leave the user's
    /// settings alone.
    void setRememberGeometry(bool remember) { rememberGeometry_ = remember; }
    bool remembersGeometry() const { return rememberGeometry_; }

    /// The size the window opens at when nothing was saved.
    static QSize defaultSize();

    QAction* quitAction() const { return quitAction_; }
    QAction* aboutAction() const { return aboutAction_; }
    WelcomePage* welcomePage() const { return welcome_; }
    /// The About dialog once it has been shown, nullptr before.
    AboutDialog* aboutDialog() const { return about_; }

public Q_SLOTS:
    /// Shows Help > About (window-modal; returns at once).
    void showAbout();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();

    WelcomePage* welcome_;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    AboutDialog* about_ = nullptr;
    bool rememberGeometry_ = true;
};

} // namespace pcl::ui
