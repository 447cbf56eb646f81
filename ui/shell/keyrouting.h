// Which keys the window takes from the widget that has the focus.
//
// A presentation clicker sends Page Down and Page Up (some send the right
// and left arrows); a teacher presses them with the focus wherever the last
// click left it: in the lock table, a parameter's field, the lesson's text.
// While a lesson is shown, those keys step the lesson, whichever widget has
// the focus, except one: a text field the teacher is typing in keeps the
// arrows for its cursor (and a number's Up and Down for its value) until
// the value is entered (Enter, or leaving the field). Page Up and Page Down
// always step: no field of the window needs them, and a clicker sends them.
//
// And the window's shortcuts win over a text field's Ctrl+letter keys that
// only repeat another key (Ctrl+E, the end of the line, is End on every
// desktop): Ctrl+E goes back to the gallery from the Speed field too. The
// editing keys themselves (copy, paste, undo, select all) stay the field's.
#pragma once

#include <QObject>

#include <functional>

class QKeyEvent;
class QWidget;

namespace pcl::ui {

class KeyRouting : public QObject {
    Q_OBJECT
public:
    /// Routes the keys of @window (and of nothing else: a dialog or another
    /// window keeps its own keys) once installed on the application.
    explicit KeyRouting(QWidget* window, QObject* parent = nullptr);

    /// Whether a lesson is shown, to be stepped by the clicker's keys.
    void setLessonShown(std::function<bool()> shown) { lessonShown_ = std::move(shown); }
    /// What Next and Back do.
    void setStepping(std::function<void()> next, std::function<void()> back)
    {
        next_ = std::move(next);
        back_ = std::move(back);
    }

    /// +1 for a key that means Next, -1 for Back, 0 for another.
    static int direction(const QKeyEvent& key);
    /// Whether @focus, the focused widget, keeps @key (an arrow) for itself:
    /// a text field being typed in.
    static bool fieldKeeps(const QWidget* focus, const QKeyEvent& key);
    /// Whether the window's shortcut should win over a text field for @key.
    static bool shortcutWins(const QWidget* focus, const QKeyEvent& key);

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool ours(QObject* watched) const;

    QWidget* window_;
    std::function<bool()> lessonShown_;
    std::function<void()> next_;
    std::function<void()> back_;
};

} // namespace pcl::ui
