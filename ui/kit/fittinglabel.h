// A one-line label with a full text and a brief one: it shows the full text
// where it fits and the brief one where it does not, and needs no more than
// the brief one's width. A bar of controls under the views (the rewind
// bar's "12.5 s of 20 s: any moment can be shown again") then never widens
// the centre of the window beyond what the docks beside it leave, as a
// projector's 1280 x 720 with the lesson open needs. Its owner says how
// much room it has (setRoom): where the full text does not fit in that, it
// asks only for the brief one's width, so that a layout does not give it
// a width between the two and leave the difference empty.
#pragma once

#include <QLabel>

namespace pcl::ui {

class FittingLabel : public QLabel {
public:
    using QLabel::QLabel;

    /// Shows @full where the label is wide enough for it, else @brief
    /// (which should begin as @full does); the tooltip is left as it is.
    void setTexts(const QString& full, const QString& brief);
    /// The full text, whichever is shown.
    const QString& fullText() const noexcept { return full_; }
    /// The widest it may be, in pixels (unlimited until set).
    void setRoom(int width);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit();

    /// Whether the full text fits in @width pixels of the label.
    bool fitsIn(int width) const;

    QString full_;
    QString brief_;
    int room_ = QWIDGETSIZE_MAX;
};

} // namespace pcl::ui
