// Telling a click from a drag: a press that moves less than kThreshold
// pixels (Manhattan length) before its release is a click where it was
// pressed; once it has moved that far it is a drag, from the press point,
// until the release. One threshold for every view.
#pragma once

#include <QPoint>

namespace pcl::ui {

class ClickOrDrag {
public:
    static constexpr int kThreshold = 4;

    void press(QPoint at)
    {
        pressed_ = true;
        dragging_ = false;
        from_ = at;
    }
    /// Whether the pointer, now at @at, drags (it may start here).
    bool move(QPoint at)
    {
        if (pressed_ && !dragging_ && (at - from_).manhattanLength() >= kThreshold)
            dragging_ = true;
        return dragging_;
    }
    /// Ends the press; whether it was a click.
    bool release()
    {
        const bool click = pressed_ && !dragging_;
        pressed_ = false;
        dragging_ = false;
        return click;
    }
    bool pressed() const { return pressed_; }
    bool dragging() const { return dragging_; }
    QPoint from() const { return from_; }

private:
    QPoint from_;
    bool pressed_ = false;
    bool dragging_ = false;
};

} // namespace pcl::ui
