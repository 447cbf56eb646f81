// The one scale of the window: every text, and what is drawn to the text's
// measure (the views lay themselves out from their font), grows and shrinks
// with it, so that a lecture hall's back row can read the run (View > Zoom
// in, Ctrl+plus; Zoom out, Ctrl+minus; Actual size, Ctrl+0).
//
// It scales the application font: widgets that take the application's
// font follow at once (Qt sends them FontChange). The scale is kept in the
// settings and applied again on the next start.
#pragma once

#include <QFont>
#include <QObject>
#include <QSize>

#include <vector>

namespace pcl::ui {

class Zoom : public QObject {
    Q_OBJECT
public:
    /// Takes the application font as it is now as the font at 100%.
    explicit Zoom(QObject* parent = nullptr);

    /// The scales offered, smallest first: 1.0 is the desktop's own size.
    static const std::vector<double>& stops();
    double scale() const { return scale_; }
    /// The application font at 100%.
    const QFont& baseFont() const { return base_; }
    /// The stop nearest @scale, up to maximum(), becomes the window's scale.
    void setScale(double scale);

    /// The largest scale the screen has room for: the largest stop at which
    /// a screen of @screen pixels still holds kMinimumRoom of the text's
    /// measure (2.0 on a 1080p projector, 3.0 on a 4K one), 1.0 at least.
    /// Beyond it the run's views and the step's caption no longer fit.
    static double maximumFor(QSize screen);
    static constexpr QSize kMinimumRoom { 960, 540 };
    /// The largest scale offered (default: the largest stop); a scale above
    /// it comes down to it.
    void setMaximum(double maximum);
    double maximum() const { return maximum_; }

    /// Reads the scale saved last (1.0 when none) and applies it.
    void restore();
    /// Whether a change of scale is saved (default false: a scripted run or
    /// a test leaves the user's settings alone).
    void setRemember(bool remember) { remember_ = remember; }

    /// The settings key the scale is saved under.
    static const char* settingsKey() { return "View/zoom"; }

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void reset();

Q_SIGNALS:
    /// Before the font of a new scale is set: what is laid out is still
    /// the old scale's.
    void aboutToChangeScale();
    void scaleChanged(double scale);
    void maximumChanged(double maximum);

private:
    QFont base_;
    double scale_ = 1.0;
    double maximum_;
    bool remember_ = false;
};

} // namespace pcl::ui
