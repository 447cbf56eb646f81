#include "shell/keyrouting.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace pcl::ui {

namespace {

/// The line a text field types into: the field itself, a spin box's or an
/// editable combo box's; nullptr for a widget that is none of these.
const QLineEdit* lineOf(const QWidget* w)
{
    if (const auto* line = qobject_cast<const QLineEdit*>(w))
        return line;
    if (qobject_cast<const QAbstractSpinBox*>(w))
        return w->findChild<const QLineEdit*>();
    if (const auto* combo = qobject_cast<const QComboBox*>(w))
        return combo->isEditable() ? combo->lineEdit() : nullptr;
    return nullptr;
}

/// An editable text of several lines.
bool isTextArea(const QWidget* w)
{
    if (const auto* plain = qobject_cast<const QPlainTextEdit*>(w))
        return !plain->isReadOnly();
    if (const auto* rich = qobject_cast<const QTextEdit*>(w))
        return !rich->isReadOnly();
    return false;
}

constexpr Qt::KeyboardModifiers kChordModifiers = Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;

} // namespace

KeyRouting::KeyRouting(QWidget* window, QObject* parent)
    : QObject(parent)
    , window_(window)
{
}

int KeyRouting::direction(const QKeyEvent& key)
{
    if (key.modifiers() & (kChordModifiers | Qt::ShiftModifier))
        return 0;
    switch (key.key()) {
    case Qt::Key_PageDown:
    case Qt::Key_Right:
    case Qt::Key_Down:
        return 1;
    case Qt::Key_PageUp:
    case Qt::Key_Left:
    case Qt::Key_Up:
        return -1;
    default:
        return 0;
    }
}

bool KeyRouting::fieldKeeps(const QWidget* focus, const QKeyEvent& key)
{
    if (!focus || key.key() == Qt::Key_PageDown || key.key() == Qt::Key_PageUp)
        return false;
    // Several lines of text are walked with the arrows all the time.
    if (isTextArea(focus))
        return true;
    // A line keeps them once typed in, until its value is entered: the
    // panel writes the value back, which ends the edit (isModified()).
    const QLineEdit* line = lineOf(focus);
    return line && !line->isReadOnly() && line->isModified();
}

bool KeyRouting::shortcutWins(const QWidget* focus, const QKeyEvent& key)
{
    if (!focus || (!lineOf(focus) && !isTextArea(focus)))
        return false;
    if ((key.modifiers() & kChordModifiers) != Qt::ControlModifier || key.key() < Qt::Key_A || key.key() > Qt::Key_Z)
        return false;
    // The keys that edit: the field's, whatever the window binds.
    for (const QKeySequence::StandardKey editing : { QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste,
             QKeySequence::Undo, QKeySequence::Redo, QKeySequence::SelectAll })
        if (key.matches(editing))
            return false;
    return true;
}

bool KeyRouting::ours(QObject* watched) const
{
    if (!watched->isWidgetType())
        return false;
    // A menu or a combo box's list open takes its own keys.
    return static_cast<QWidget*>(watched)->window() == window_ && !QApplication::activePopupWidget();
}

bool KeyRouting::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if ((type != QEvent::ShortcutOverride && type != QEvent::KeyPress) || !ours(watched))
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    const auto* focus = static_cast<QWidget*>(watched);
    if (type == QEvent::ShortcutOverride) {
        // Left unaccepted, the key goes to the window's shortcut if it has
        // one, and to the field as usual if it has none.
        if (shortcutWins(focus, *key)) {
            event->ignore();
            return true;
        }
        return false;
    }
    const int step = direction(*key);
    if (step == 0 || !lessonShown_ || !lessonShown_() || fieldKeeps(focus, *key))
        return false;
    // A held key would restart step after step: one step a press.
    if (!key->isAutoRepeat()) {
        if (step > 0 && next_)
            next_();
        else if (step < 0 && back_)
            back_();
    }
    return true;
}

} // namespace pcl::ui
