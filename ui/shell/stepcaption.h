// The lesson's step as a caption across the bottom of the window, in print
// a lecture hall reads: "Step 2 of 4: A radix tree per file", what to look
// at, and Back and Next at the two ends. Shown in presentation mode.
//
// The buttons sit at the window's bottom corners whatever the step's text,
// so that a teacher's pointer finds them where it left them; the caption
// grows upwards with a longer text.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace pcl::ui {

class StepCaption : public QWidget {
    Q_OBJECT
public:
    explicit StepCaption(QWidget* parent = nullptr);

    /// Shows step @title ("Step 2 of 4: ...") and @text; Back and Next
    /// enabled as @canBack and @canNext say.
    void setStep(const QString& title, const QString& text, bool canBack, bool canNext);
    QString title() const;
    QString text() const;
    QPushButton* backButton() const { return back_; }
    QPushButton* nextButton() const { return next_; }

    /// The caption's sizes, from the window's font: the title and the text.
    static constexpr double kTitleScale = 1.6;
    static constexpr double kTextScale = 1.3;

Q_SIGNALS:
    void backClicked();
    void nextClicked();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// As tall as the wrapped text at the width it has, no taller: the
    /// toolbar it sits in asks a wrapping label for its height at a narrow
    /// width, and kept the docks above from a third of a 1080-line screen.
    void fitHeight();
    /// The labels' and buttons' fonts, from the caption's own (the
    /// application's, zoomed).
    void restyle();

    QLabel* title_;
    QLabel* text_;
    QPushButton* back_;
    QPushButton* next_;
};

} // namespace pcl::ui
