// The page the main window shows on start: what Page Cache Lab is, and the
// gallery of experiments to run: the bundled scenarios (each a card with its
// title, year, source, what it shows, and Run), recent files, and Open.
#pragma once

#include "lesson/lesson.h"
#include "run/scenariolibrary.h"

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
    /// Shows @lessons under "Lessons", grouped by the thread they come from
    /// (in the order given: by name, so by year), each a card with Start.
    void setLessons(const std::vector<Lesson>& lessons);
    /// The lesson cards, in reading order.
    QList<WelcomeCard*> lessonCards() const { return lessonCards_; }

Q_SIGNALS:
    /// Run was pressed on a card or a recent file: a preset name or a path.
    void runRequested(const QString& presetOrPath);
    /// "Open a scenario file..." was pressed.
    void openRequested();
    /// Start was pressed on a lesson's card: its name.
    void lessonRequested(const QString& name);

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
    QList<WelcomeCard*> lessonCards_;
    QVBoxLayout* lessons_;
};

} // namespace pcl::ui
