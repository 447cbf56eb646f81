// The lesson beside the views: the question and who argued what, the step
// in hand (what to look at and why, at what speed), Back, Reset and Next,
// and at the end the measurement and its verdict table.
//
// A step sets its run on the simulation (its scenario, the step's
// overrides and its speed), asks the window to bring its view forward and
// outline what it highlights, and pauses the run by itself when its
// condition holds (lesson/lesson_pause.h). Measure runs the lesson's claims
// (lesson/experiment.h) on a thread of its own, unpaced, and fills the
// verdict table when they are done; the views stay live meanwhile.
#pragma once

#include "lesson/experiment.h"
#include "lesson/lesson.h"
#include "lesson/lesson_pause.h"
#include "lessons/lessontablechart.h"
#include "lessons/proberesultsview.h"
#include "lessons/stepfigures.h"

#include <QPointer>
#include <QTableWidget>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
class QThread;

namespace pcl::ui {

class Simulation;

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(Simulation& sim, QWidget* parent = nullptr);
    ~LessonPanel() override;

    /// Shows @lesson at its first step, ready to play (its scenario set on
    /// the simulation). Throws LessonError for a step whose scenario does
    /// not validate.
    void setLesson(const Lesson& lesson);
    bool hasLesson() const { return lesson_.has_value(); }
    /// Forgets the lesson (a scenario of its own was opened): its steps
    /// pause and outline nothing any more.
    void clearLesson();
    const Lesson& lesson() const { return *lesson_; }

    /// The step shown, from 0.
    int stepIndex() const { return step_; }
    /// Goes to step @index (clamped) and sets up its run.
    void goToStep(int index);
    /// Whether the step's pause condition has paused its run.
    bool pausedByStep() const { return pausedByStep_; }

    /// The lesson's measurements of the structures themselves: each probe
    /// run's figures, filled as its step opens (lesson_probe.h). The panel
    /// does not place it: the window shows it among the views.
    ProbeResultsView* probeResults() const { return probeResults_; }
    /// Whether the step's probe is being measured.
    bool probing() const { return prober_ != nullptr; }

    /// Each step's headline figures, one column per step that ran the
    /// machine, kept as the lesson goes on.
    StepFiguresTable* stepFigures() const { return stepFigures_; }

    /// The verdicts of the last measurement, if one finished.
    const std::optional<ExperimentResult>& verdicts() const { return result_; }
    /// Whether a measurement is running.
    bool measuring() const { return measurer_ != nullptr; }
    /// The verdict table: one row per claim once measured. The panel does
    /// not place it: the window shows it where there is room for it.
    QTableWidget* verdictTable() const { return verdictTable_; }
    /// The verdict table and, for a lesson with tables of its thread, their
    /// charts beside it: what the window places.
    QWidget* verdictView() const;
    /// The charts of the thread's tables beside ours, once measured.
    LessonTableChart* tableChart() const { return tableChart_; }
    /// What the step box says (title and text), as shown.
    QString stepText() const;
    /// The step's title as shown ("Step 2 of 4: ..."), and its text.
    QString stepTitle() const;
    QString stepBody() const;
    /// The view the step shows ("radix", "locks", "tornpte"...), empty without a lesson.
    QString stepView() const;
    /// Whether there is a step before and after the one shown.
    bool hasBack() const { return lesson_ && step_ > 0; }
    bool hasNext() const { return lesson_ && step_ + 1 < int(lesson_->steps.size()); }
    /// Whether the step measures the structures (a probe) rather than runs the machine.
    bool probeStep() const;
    /// Writes the last measurement's verdicts to @path atomically: JSON
    /// when it ends in ".json" (as `pagecache-lab-cli experiment --json`
    /// writes them), CSV otherwise. False, with @error set, when there is
    /// nothing measured or the file cannot be written; an existing file is
    /// then left as it was.
    bool saveVerdicts(const QString& path, QString* error = nullptr) const;

    bool eventFilter(QObject* watched, QEvent* event) override;

public Q_SLOTS:
    /// The next step, or the one before; nothing past either end (the step
    /// shown is not set up again).
    void next();
    void back();
    /// Sets the step's run up again from the start.
    void resetStep();
    /// Measures the claims: the quick form unless the full one is ticked.
    void measure();
    /// Asks where, then saves the verdicts (saveVerdicts).
    void saveVerdictsAs();

Q_SIGNALS:
    /// Step @index (from 0) is shown: set up anew, or another step.
    void stepShown(int index);
    /// The step brings @view to the front ("radix", "locks", ...).
    void viewRequested(const QString& view);
    /// The step outlines the lock or lock class @name ("" : none).
    void lockHighlighted(const QString& name);
    /// The step outlines file @file.
    void fileHighlighted(pcl::FileId file);
    /// The step outlines hash bucket @bucket (nullopt: none). Each step
    /// emits this, the node and the CPU signal, so an outline of an earlier
    /// step never stays.
    void bucketHighlighted(std::optional<std::uint64_t> bucket);
    /// The step outlines the radix-tree leaf holding page @index (nullopt: none).
    void nodeHighlighted(std::optional<pcl::pgoff_t> index);
    /// The step outlines CPU @cpu's lane (nullopt: none).
    void cpuHighlighted(std::optional<unsigned> cpu);
    /// The step's run paused by itself where its condition held: the moment
    /// a class is to look at, named @name ("Step 2: A lock per page-table page").
    void pausedByItself(const QString& name);
    /// A measurement finished (or failed: @error is not empty).
    void measured(const QString& error);
    /// The step's probe finished (or failed: @error is not empty).
    void probed(const QString& error);
    /// A step on a probe run brings forward the probe's own view (@view:
    /// "tornpte"), to walk the run whose parameters are @settings, every
    /// one as "name=value".
    void probeViewRequested(const QString& view, const QStringList& settings);

protected:
    void changeEvent(QEvent* event) override;

private:
    /// The title's and the panel's sizes, from the panel's font (the
    /// application's, which the window's zoom scales).
    void restyle();
    /// Shows the step and sets its run up (setUpStep), then says so.
    void showStep();
    void setUpStep();
    /// Emits what @highlight outlines, and clears every other kind.
    void showHighlight(const LessonHighlight& highlight);
    void probeStep(const LessonRun& run);
    void checkPause();
    /// Writes the step's run's figures so far into its column.
    void recordFigures();
    void showVerdicts();

    Simulation& sim_;
    std::optional<Lesson> lesson_;
    int step_ = 0;
    bool pausedByStep_ = false;
    PauseWatch pauseWatch_; ///< the current step's condition, as its run goes on
    std::optional<ExperimentResult> result_;
    QThread* measurer_ = nullptr;
    QThread* prober_ = nullptr;
    unsigned probeGeneration_ = 0; ///< which step's probe a finished one belongs to
    bool stepRuns_ = false;        ///< the simulation holds the step's own run
    unsigned ticks_ = 0;           ///< ticks of the step's run, to record its figures once a second

    QLabel* title_;
    QLabel* source_;
    QLabel* question_;
    QLabel* arguments_;
    QLabel* stepTitle_;
    QLabel* stepText_;
    QLabel* speed_;
    QPushButton* back_;
    QPushButton* reset_;
    QPushButton* next_;
    QPushButton* measure_;
    QPushButton* save_;
    QCheckBox* fullForm_;
    QLabel* measureNote_;
    QLabel* figuresTitle_;
    StepFiguresTable* stepFigures_;
    QPointer<ProbeResultsView> probeResults_; ///< the window may delete it before the panel
    QPointer<QSplitter> verdictView_;         ///< the window's dock may delete it before the panel
    QTableWidget* verdictTable_;              ///< in verdictView_
    LessonTableChart* tableChart_;            ///< in verdictView_
};

} // namespace pcl::ui
