// The number editor of the Parameters panel: digits as text, arrows that
// step within the field's range, the unit inside the box.
#include "run/numberbox.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStyle>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace pcl::ui {

using Type = ParameterSpec::Type;

NumberBox::NumberBox(const ParameterSpec& spec, QWidget* parent)
    : QAbstractSpinBox(parent)
    , spec_(spec)
{
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
    setKeyboardTracking(true);
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setFocusPolicy(Qt::StrongFocus);
    if (!spec.unit.isEmpty()) {
        unit_ = new QLabel(spec.unit, lineEdit());
        unit_->setAttribute(Qt::WA_TransparentForMouseEvents);
        unit_->setForegroundRole(QPalette::PlaceholderText);
        lineEdit()->setTextMargins(0, 0, unit_->sizeHint().width() + 4, 0);
    }
}

QString NumberBox::number() const
{
    return lineEdit()->text().trimmed();
}

void NumberBox::setNumber(const QString& text)
{
    lineEdit()->setText(text);
}

QValidator::State NumberBox::validate(QString& input, int&) const
{
    // Digits (and for a real a point and an exponent) only: no field is
    // negative, and a value out of range is the scenario's to refuse.
    static const QRegularExpression kInt(QStringLiteral("^\\s*[0-9]*\\s*$"));
    static const QRegularExpression kReal(QStringLiteral("^\\s*[0-9]*\\.?[0-9]*([eE][-+]?[0-9]*)?\\s*$"));
    return (spec_.type == Type::Int ? kInt : kReal).match(input).hasMatch() ? QValidator::Acceptable
                                                                            : QValidator::Invalid;
}

void NumberBox::stepBy(int steps)
{
    stepping_ = true;
    if (spec_.type == Type::Int)
        setNumber(QString::number(steppedInt(steps)));
    else
        setNumber(QString::number(steppedReal(steps), 'g', 12));
    stepping_ = false;
    selectAll();
}

bool NumberBox::admits(const QString& text) const
{
    for (const QChar c : text) {
        const bool real = spec_.type == Type::Double
            && (c == QLatin1Char('.') || c == QLatin1Char('e') || c == QLatin1Char('E') || c == QLatin1Char('+')
                || c == QLatin1Char('-'));
        if (!c.isDigit() && !real)
            return false;
    }
    return true;
}

bool NumberBox::event(QEvent* event)
{
    // The line inside takes every key that types text before the window's
    // shortcuts see it; a key that types nothing a number holds is left to
    // them, so Space pauses the run instead of blanking the value.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool chord = key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
        if (!chord && !key->text().isEmpty() && key->text().at(0).isPrint() && !admits(key->text())) {
            event->ignore();
            return true;
        }
    }
    return QAbstractSpinBox::event(event);
}

void NumberBox::keyPressEvent(QKeyEvent* event)
{
    // No shortcut took it (the gallery has no Play): a space typed still
    // does not replace the number.
    if (!event->text().isEmpty() && event->text().at(0).isPrint() && !admits(event->text())
        && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
        event->ignore();
        return;
    }
    QAbstractSpinBox::keyPressEvent(event);
}

QSize NumberBox::sizeHint() const
{
    QSize s = QAbstractSpinBox::sizeHint();
    s.setWidth(fontMetrics().horizontalAdvance(QStringLiteral("0")) * 12 + (unit_ ? unit_->sizeHint().width() : 0)
        + style()->pixelMetric(QStyle::PM_SpinBoxFrameWidth, nullptr, this) * 2 + 24);
    return s;
}

QSize NumberBox::minimumSizeHint() const
{
    QSize s = sizeHint();
    s.setWidth(s.width() / 2);
    return s;
}

QAbstractSpinBox::StepEnabled NumberBox::stepEnabled() const
{
    if (isReadOnly())
        return StepNone;
    StepEnabled e = StepNone;
    if (spec_.type == Type::Int) {
        std::uint64_t v;
        if (!parseInt(v))
            return StepUpEnabled | StepDownEnabled;
        if (v < spec_.maxInt)
            e |= StepUpEnabled;
        if (v > spec_.minInt)
            e |= StepDownEnabled;
    } else {
        bool ok = false;
        const double v = number().toDouble(&ok);
        if (!ok)
            return StepUpEnabled | StepDownEnabled;
        if (v < spec_.maxReal)
            e |= StepUpEnabled;
        if (v > spec_.minReal)
            e |= StepDownEnabled;
    }
    return e;
}

void NumberBox::resizeEvent(QResizeEvent* event)
{
    QAbstractSpinBox::resizeEvent(event);
    if (unit_) {
        const QRect r = lineEdit()->rect();
        const QSize hint = unit_->sizeHint();
        unit_->setGeometry(r.right() - hint.width() - 2, r.top(), hint.width(), r.height());
    }
}

bool NumberBox::parseInt(std::uint64_t& v) const
{
    const QByteArray text = number().toLatin1();
    const auto [end, ec] = std::from_chars(text.constData(), text.constData() + text.size(), v);
    return ec == std::errc() && end == text.constData() + text.size() && !text.isEmpty();
}

std::uint64_t NumberBox::steppedInt(int steps) const
{
    std::uint64_t v;
    if (!parseInt(v))
        return spec_.defaultValue.is_integer() ? spec_.defaultValue.as_uint() : spec_.minInt;
    for (; steps > 0; --steps) {
        std::uint64_t next = spec_.powerOfTwo ? (v == 0     ? 1
                                     : v > spec_.maxInt / 2 ? spec_.maxInt
                                                            : v * 2)
                                              : (v >= spec_.maxInt ? spec_.maxInt : v + 1);
        v = std::min(std::max(next, spec_.minInt), spec_.maxInt);
    }
    for (; steps < 0; ++steps) {
        std::uint64_t next = spec_.powerOfTwo ? v / 2 : (v == 0 ? 0 : v - 1);
        v = std::max(std::min(next, spec_.maxInt), spec_.minInt);
    }
    return v;
}

double NumberBox::steppedReal(int steps) const
{
    bool ok = false;
    double v = number().toDouble(&ok);
    if (!ok)
        v = spec_.defaultValue.is_number() ? spec_.defaultValue.as_double() : spec_.minReal;
    // Land on multiples of the step, so 0.25 + 0.05 reads 0.3, not 0.30000000000000004.
    v = std::round(v / spec_.step + steps) * spec_.step;
    return std::clamp(v, spec_.minReal, spec_.maxReal);
}

} // namespace pcl::ui
