// The page the main window shows on start: what Page Cache Lab is, what it
// shows, and what can be run today. Text and drawings only: no data, and no
// controls until there is something for them to do.
#pragma once

#include <QWidget>

class QLabel;

namespace pcl::ui {

class WelcomeCard;

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    /// The cards, in reading order (for tests and for the scenario gallery
    /// that will sit beside them).
    QList<WelcomeCard*> cards() const { return cards_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();

    QLabel* tagline_;
    QLabel* intro_;
    QLabel* sectionTitle_;
    QLabel* available_;
    QList<WelcomeCard*> cards_;
};

} // namespace pcl::ui
