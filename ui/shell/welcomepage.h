// The page the main window shows on start: what Page Cache Lab is, and the
// gallery of experiments to run: the bundled scenarios (each a card with its
// title, year, source, what it shows, and Run), recent files, and Open.
#pragma once

#include "shell/scenariolibrary.h"

#include <QWidget>

class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace pcl::ui {

class WelcomeCard;

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(const QList<ScenarioEntry>& presets, QWidget* parent = nullptr);

    /// The scenario cards, in reading order.
    QList<WelcomeCard*> cards() const { return cards_; }
    /// Shows @paths (newest first) under "Recent files".
    void setRecentFiles(const QStringList& paths);

Q_SIGNALS:
    /// Run was pressed on a card or a recent file: a preset name or a path.
    void runRequested(const QString& presetOrPath);
    /// "Open a scenario file..." was pressed.
    void openRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    void arrangeCards(int columns);

    QLabel* tagline_;
    QLabel* intro_;
    QLabel* sectionTitle_;
    QLabel* recentTitle_;
    QWidget* recent_;
    QVBoxLayout* recentList_;
    QGridLayout* grid_;
    int columns_ = 0;
    QList<WelcomeCard*> cards_;
};

} // namespace pcl::ui
