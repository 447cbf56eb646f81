// A one-line label with a full text and a brief one: it shows the full text
// where it fits and the brief one where it does not, and asks its layout
// for no more than the brief one's width. A bar of controls under the views
// (the rewind bar's "12.5 s of 20 s: any moment can be shown again") then
// never widens the centre of the window beyond what the docks beside it
// leave, as a projector's 1280 x 720 with the lesson open needs.
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

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit();

    QString full_;
    QString brief_;
};

} // namespace pcl::ui
