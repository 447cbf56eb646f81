// The run's controls and its figures at a glance: Play/Pause (Space), Step
// (S: each CPU one operation), Reset (R), the speed from slow motion to
// unpaced, and elapsed time, operations/s, faults/s, hit ratio and lock
// wait, each defined in its tooltip.
#pragma once

#include <QToolBar>

class QAction;
class QComboBox;
class QLabel;
class QSlider;

namespace pcl::ui {

class Simulation;

class RunToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit RunToolBar(Simulation& simulation, QWidget* parent = nullptr);

    QAction* playAction() const { return play_; }
    QAction* stepAction() const { return step_; }
    QAction* resetAction() const { return reset_; }
    QSlider* speedSlider() const { return speed_; }
    /// The machine the run is on: this computer's threads, or a modelled
    /// profile (its data: the profile's name, "" for the threads).
    QComboBox* machineBox() const { return machine_; }

    /// Speeds the slider offers, operations per second per CPU; the last
    /// position (0) is unpaced.
    static const std::vector<double>& speeds();
    /// The slider position closest to @opsPerSecond.
    static int positionFor(double opsPerSecond);
    /// "300 ops/s per CPU", "unpaced".
    static QString speedText(double opsPerSecond);
    /// On a modelled machine the slider sets the playback rate instead:
    /// modelled seconds a second, from a microsecond to real time; the last
    /// position (0) is as fast as this computer computes it.
    static const std::vector<double>& playbackRates();
    /// "1 modelled ms a second", "real time", "as fast as it computes".
    static QString playbackText(double modelledSecondsPerSecond);
    /// A time of the run, in the unit that suits it ("3.2 s", "12.5 ms").
    static QString timeText(double seconds);

    /// The figures as shown (for tests): elapsed, ops/s, faults/s, hit ratio, lock wait.
    QStringList figures() const;

private:
    void updateActions();
    void updateFigures();
    void speedChanged(int position);
    /// Puts the run on the machine of item @index (at most its CPUs).
    void machineChosen(int index);
    /// Shows the run's machine in the box.
    void showMachine();
    /// Shows @opsPerSecond on the slider and its label without setting it again.
    void showSpeed(double opsPerSecond);
    /// Shows the playback rate of a modelled run on the slider.
    void showPlayback(double modelledSecondsPerSecond);
    /// The slider's stops: speeds, or playback rates on a modelled machine.
    const std::vector<double>& stops() const;

    Simulation& sim_;
    QAction* play_;
    QAction* step_;
    QAction* reset_;
    QComboBox* machine_;
    QSlider* speed_;
    QLabel* speedLabel_;
    QLabel* elapsed_;
    QLabel* opsRate_;
    QLabel* faultRate_;
    QLabel* hitRatio_;
    QLabel* lockWait_;
};

} // namespace pcl::ui
