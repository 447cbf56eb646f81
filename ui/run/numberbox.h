// NumberBox: the Parameters panel's editor of a number field.
//
// A number editor with arrows that holds its value as text, so a 64-bit
// integer or a double keeps every digit (QSpinBox stops at 2^31-1 and
// QDoubleSpinBox rounds to its decimals). Typing may leave the documented
// range: the panel shows the scenario's reason instead of silently
// clamping. The arrows stay inside the range; the unit is drawn inside the
// box on the right, as a spin box suffix, but is not part of the text.
#pragma once

#include "run/parameterschema.h"

#include <QAbstractSpinBox>
#include <QString>

#include <cstdint>

class QLabel;
class QLineEdit;

namespace pcl::ui {

class NumberBox : public QAbstractSpinBox {
public:
    /// An editor of @spec (an Int or a Double field), which must outlive it.
    explicit NumberBox(const ParameterSpec& spec, QWidget* parent = nullptr);

    QLineEdit* edit() const { return lineEdit(); }
    /// The text, trimmed.
    QString number() const;
    void setNumber(const QString& text);

    QValidator::State validate(QString& input, int&) const override;
    void fixup(QString&) const override { }
    void stepBy(int steps) override;
    /// Whether the text is changing by an arrow (a finished value) rather than by typing.
    bool isStepping() const { return stepping_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// Whether @text, typed, could be part of this field's number: a digit,
    /// and for a real a point, an exponent or its sign. Space and letters
    /// are not, and go to the window's shortcuts (Space plays and pauses).
    bool admits(const QString& text) const;

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    StepEnabled stepEnabled() const override;
    void resizeEvent(QResizeEvent* event) override;

private:
    bool parseInt(std::uint64_t& v) const;
    std::uint64_t steppedInt(int steps) const;
    double steppedReal(int steps) const;

    const ParameterSpec& spec_;
    QLabel* unit_ = nullptr;
    bool stepping_ = false;
};

} // namespace pcl::ui
