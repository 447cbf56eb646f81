// Under the views: the run's moment, to take a modelled run back to.
//
// A modelled run is deterministic, so any moment of it can be shown again:
// the scrubber and Back take it to an earlier moment by re-executing it
// there (Simulation::rewindTo), and every view then shows the machine as
// it stood; bookmarks name moments to come back to. A run on this
// computer's threads cannot be re-executed: there the scrubber moves the
// CPU timeline through what was recorded, and says that the structure
// views show the machine as it is now.
#pragma once

#include <QWidget>

#include <cstdint>
#include <functional>
#include <optional>

class QMenu;
class QSlider;
class QToolButton;

namespace pcl::ui {

class FittingLabel;
class Simulation;

class RewindBar : public QWidget {
    Q_OBJECT
public:
    /// @showRecorded moves the timeline to a moment of a run on this
    /// computer's threads (the run's clock, ns).
    RewindBar(Simulation& sim, std::function<void(double clockNs)> showRecorded, QWidget* parent = nullptr);

    /// Positions of the scrubber (0 .. kSteps).
    static constexpr int kSteps = 1000;
    QSlider* scrubber() const { return slider_; }
    QToolButton* backButton() const { return back_; }
    QToolButton* backOperationButton() const { return backOperation_; }
    QToolButton* bookmarkButton() const { return mark_; }
    /// The bookmarks, one action each (its data: the moment, ns), in the
    /// menu of the button beside.
    QMenu* bookmarks() const { return bookmarkMenu_; }
    /// What the bar says ("12.3 ms of 40.0 ms, modelled: any moment can be shown again").
    QString text() const;

    /// Takes the run back by one frame of the playback (a tick's worth at
    /// its rate; a hundredth of the run when it plays as fast as it
    /// computes).
    void back();
    /// Takes the run back to where the last operation began: of the CPU
    /// in focus (setFocusedCpu), or of any CPU.
    void backOneOperation();
    /// Names the moment where the run stands.
    void bookmark();
    /// Adds moment @runningNs to the bookmarks, named @name.
    void addBookmark(std::uint64_t runningNs, const QString& name);
    /// Where the CPU in focus comes from (the timeline's outlined lane).
    void setFocusedCpu(std::function<std::optional<unsigned>()> focused) { focused_ = std::move(focused); }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void follow();
    /// Tells the label how much of the bar it may take: what the buttons
    /// and a scrubber of a useful width leave.
    void giveRoom();
    void scrubbed(int position);
    std::uint64_t horizonNs() const;

    Simulation& sim_;
    std::function<void(double)> showRecorded_;
    std::function<std::optional<unsigned>()> focused_;
    QToolButton* back_;
    QToolButton* backOperation_;
    QSlider* slider_;
    FittingLabel* where_;
    QToolButton* mark_;
    QToolButton* goTo_;
    QMenu* bookmarkMenu_;
};

} // namespace pcl::ui
