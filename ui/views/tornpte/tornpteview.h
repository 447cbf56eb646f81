// The torn PTE read, one memory operation at a time, for a teacher to walk
// a class through (pagefault scalability (2005)): on i386 PAE a fault
// handler reads the entry's two halves without the PTE lock while a writer
// changes it, and may return an entry that was never in memory.
//
// The view runs a scripted interleaving (mm/split_pte_script.h: the
// reader's real code, with the writer let in between two of its loads) and
// shows one step of it at a time: memory's two halves, the reader's
// registers, the PTE lock and the sequence count, the step in a sentence,
// both lanes of operations, and once the reader has returned, what it
// returned, torn or whole. A bar above the picture picks how the reader
// reads (the naive read, the re-read, each fix) and the interleaving, and
// steps Back and Next; Left and Right (or a presenter's Page Up and Page
// Down) step too. The picture itself is TornPteLayout's.
//
// Or no script at all: explore() lets the explorer (mm/split_pte_explore.h)
// try schedule after schedule of the reader and the writer in any order,
// off the GUI thread, and shows the schedule that tore the read (or, for a
// fix, the last of those that did not), with a note under the bar saying
// in a sentence how many schedules it took and what the writer did
// between the reader's loads. The writer's box then reads "explored";
// another reader chosen there is explored in turn.
#pragma once

#include "views/tornpte/tornptelayout.h"

#include "mm/split_pte_explore.h"
#include "mm/split_pte_script.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <string_view>

class QBoxLayout;
class QComboBox;
class QLabel;
class QPushButton;

namespace pcl::ui {

class TornPteView : public QWidget {
    Q_OBJECT
public:
    /// Shows the naive read on ab_cd at its first step.
    explicit TornPteView(QWidget* parent = nullptr);
    /// Stops an exploration under way and waits for it.
    ~TornPteView() override;

    /// Runs @interleaving (pte_interleavings(): "ab_cd", "ab_cd_ae") with a
    /// reader reading by @method and shows it at step 0; the bar's choices
    /// follow. Throws std::invalid_argument for an unknown interleaving.
    void setScript(PteReadMethod method, std::string_view interleaving);
    /// Shows @script at step 0. Its method and interleaving are selected in
    /// the bar when they are among its choices.
    void setScript(const PteScript& script);
    const PteScript& script() const { return script_; }

    /// Explores @config's schedules off the GUI thread (a bad @config
    /// throws std::invalid_argument here, naming its field), then shows
    /// the schedule found, or the last one tried when none was torn, with
    /// the note. An exploration under way is stopped for this one.
    void explore(const PteExploreConfig& config);
    /// Whether an exploration is under way.
    bool exploring() const { return exploring_; }
    /// The last exploration shown, if the script is its schedule.
    const std::optional<PteExploreResult>& exploration() const { return exploration_; }
    /// The note under the bar, as a student reads it: empty unless an
    /// exploration is under way or shown.
    QString note() const;
    /// The note for @result of @config, whose script shows @shown (the
    /// schedule found, or the last tried).
    static QString exploreNote(const PteExploreConfig& config, const PteExploreResult& result, const PteScript& shown);
    PteReadMethod method() const { return script_.method; }
    const std::string& interleaving() const { return script_.interleaving; }

    /// The step shown, from 0, and how many there are.
    int step() const { return step_; }
    int stepCount() const { return int(script_.steps.size()); }
    /// Shows step @index, clamped to the script.
    void setStep(int index);
    /// Whether the step shown is the last one.
    bool atEnd() const { return step_ + 1 >= stepCount(); }

    /// What the picture shows, as laid out for the current size.
    const TornPteLayout& layoutModel() const { return layout_; }
    /// The picture's area: the widget below its bar.
    QRect canvasRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    /// Below this the lanes have room for too few rows to follow a script
    /// and the headings are cut; narrow enough to sit beside the lesson and
    /// the charts at 1280 pixels.
    static constexpr QSize kMinCanvas { 580, 330 };

public Q_SLOTS:
    void next();
    void back();

Q_SIGNALS:
    /// The step shown changed (also to 0 when a script is set).
    void stepChanged(int step);
    /// A new script is shown: another method or interleaving.
    void scriptChanged();
    /// An exploration ended and its schedule is shown.
    void explored();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void relayout();
    /// How the bar is laid out at a width: in one row (the choices, then
    /// the stepping), two (the stepping under the choices) or three (each
    /// choice on its own row); its height then, and its least width.
    struct BarRows {
        int count = 1;
        int height = 0;
        int narrowest = 0;
    };
    BarRows barRowsAt(int width) const;
    /// The bar in one, two or three rows, as the width allows.
    void arrangeBar();
    void syncBar();
    void choose();
    void showScript(const PteScript& script);
    void showNote(const QString& text);

    PteScript script_;
    std::optional<PteExploreConfig> exploreConfig_;  ///< what the writer's "explored" choice explores
    std::optional<PteExploreResult> exploration_;    ///< the exploration shown
    std::shared_ptr<std::atomic<bool>> stopExplore_; ///< the exploration under way's stop
    unsigned exploreGeneration_ = 0;
    bool exploring_ = false;
    int step_ = 0;
    TornPteLayout layout_;
    QWidget* bar_;
    QBoxLayout* rows_ = nullptr;    ///< the choices, then the stepping
    QBoxLayout* choices_ = nullptr; ///< the reader's choice, then the writer's
    QComboBox* methodBox_;
    QComboBox* interleavingBox_;
    QLabel* stepLabel_;
    QPushButton* back_;
    QPushButton* next_;
    QLabel* note_; ///< under the bar: what the explorer did, while its schedule is shown
};

} // namespace pcl::ui
