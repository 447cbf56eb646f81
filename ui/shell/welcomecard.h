// One card of the welcome page: a drawn glyph, a title, a short description,
// the source it comes from (a mailing-list thread, a recorded program) and,
// for an experiment, how long it runs.
#pragma once

#include <QColor>
#include <QFrame>

class QLabel;
class QPushButton;
class QHBoxLayout;

namespace pcl::ui {

class WelcomeCard : public QFrame {
    Q_OBJECT
public:
    /// The small picture in the card's corner, drawn with QPainter so that it
    /// follows the palette and stays sharp at any scale.
    enum class Glyph {
        Tree,      ///< a radix tree over pages (page indexes)
        Lock,      ///< a padlock with the three lock colours (locks)
        Fault,     ///< a page with an arrow into it (page faults)
        Readahead, ///< a window sliding ahead of a reader (readahead)
        Timeline,  ///< lanes of coloured spans (CPU timeline)
        Chart,     ///< bars (charts and reports)
    };

    WelcomeCard(Glyph glyph, const QColor& accent, const QString& title, const QString& text, const QString& source,
        QWidget* parent = nullptr);

    QString title() const;
    QString text() const;
    /// A line under the source: how long the experiment runs, how to follow it.
    void setNote(const QString& note);
    QString note() const;

    /// Adds a button to the card's bottom row (created on first use).
    QPushButton* addButton(const QString& text);
    QList<QPushButton*> buttons() const { return buttons_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();
    void paintGlyph(QPainter& painter, const QRectF& box) const;

    Glyph glyph_;
    QColor accent_;
    QWidget* glyphArea_;
    QLabel* title_;
    QLabel* text_;
    QLabel* source_;
    QLabel* note_ = nullptr;
    QHBoxLayout* buttonRow_ = nullptr;
    QList<QPushButton*> buttons_;
};

} // namespace pcl::ui
