#include "run/rewindbar.h"

#include "kit/fittinglabel.h"
#include "run/runtoolbar.h"
#include "run/simulation.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace pcl::ui {

RewindBar::RewindBar(Simulation& sim, std::function<void(double)> showRecorded, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
    , showRecorded_(std::move(showRecorded))
    , back_(new QToolButton)
    , backOperation_(new QToolButton)
    , slider_(new QSlider(Qt::Horizontal))
    , where_(new FittingLabel)
    , mark_(new QToolButton)
    , goTo_(new QToolButton)
    , bookmarkMenu_(new QMenu(this))
{
    setObjectName(QStringLiteral("rewindBar"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 0, 6, 0);
    row->setSpacing(6); // not the style's (-1 for some): giveRoom() counts it

    back_->setObjectName(QStringLiteral("rewindBack"));
    back_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    back_->setText(tr("Back"));
    back_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    back_->setAutoRaise(true);
    back_->setToolTip(tr("Take the run back a moment (B): it runs again, the same, to there, and every view "
                         "shows the machine as it stood"));
    back_->setShortcut(Qt::Key_B);
    connect(back_, &QToolButton::clicked, this, &RewindBar::back);

    backOperation_->setObjectName(QStringLiteral("rewindBackOperation"));
    backOperation_->setText(tr("Back 1 op"));
    backOperation_->setAutoRaise(true);
    backOperation_->setToolTip(tr("Take the run back to where the last operation began (Shift+B): of the CPU in "
                                  "focus (click a CPU's name on the timeline), or of any CPU"));
    backOperation_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_B));
    connect(backOperation_, &QToolButton::clicked, this, &RewindBar::backOneOperation);

    slider_->setObjectName(QStringLiteral("rewindScrubber"));
    slider_->setRange(0, kSteps);
    slider_->setAccessibleName(tr("Moment of the run"));
    // The label beside it gives way first (it shortens), not the scrubber.
    slider_->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    connect(slider_, &QSlider::sliderReleased, this, [this] { scrubbed(slider_->value()); });
    // Keys and clicks on the groove move it without a drag: each is a move.
    connect(slider_, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove)
            QMetaObject::invokeMethod(
                this, [this] { scrubbed(slider_->value()); }, Qt::QueuedConnection);
    });

    mark_->setObjectName(QStringLiteral("rewindBookmark"));
    mark_->setText(tr("Bookmark"));
    mark_->setAutoRaise(true);
    mark_->setToolTip(tr("Name this moment, to come back to it from the list beside"));
    connect(mark_, &QToolButton::clicked, this, &RewindBar::bookmark);

    goTo_->setObjectName(QStringLiteral("rewindBookmarks"));
    goTo_->setText(tr("Go to"));
    goTo_->setAutoRaise(true);
    goTo_->setPopupMode(QToolButton::InstantPopup);
    goTo_->setToolTip(tr("Go back (or on) to a moment bookmarked"));
    goTo_->setMenu(bookmarkMenu_);
    goTo_->setEnabled(false);

    row->addWidget(back_);
    row->addWidget(backOperation_);
    row->addWidget(slider_, 1);
    row->addWidget(where_);
    row->addWidget(mark_);
    row->addWidget(goTo_);

    connect(&sim_, &Simulation::ticked, this, &RewindBar::follow);
    connect(&sim_, &Simulation::runReset, this, [this] {
        // A new scenario forgets the old one's bookmarks; a rewind (the
        // same scenario built again) keeps them.
        if (!sim_.isRewinding()) {
            bookmarkMenu_->clear();
            goTo_->setEnabled(false);
        }
        follow();
    });
    follow();
}

std::uint64_t RewindBar::horizonNs() const
{
    if (sim_.canRewind())
        return std::max(sim_.reachedNs(), sim_.runningNs());
    return std::uint64_t(sim_.elapsedSeconds() * 1e9);
}

QString RewindBar::text() const
{
    return where_->fullText();
}

void RewindBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    giveRoom();
}

void RewindBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        giveRoom();
}

void RewindBar::giveRoom()
{
    // The full text where it fits beside the buttons and a scrubber a
    // student can aim at; else the brief one, the label no wider than it
    // and the rest the scrubber's.
    const int scrubber = fontMetrics().averageCharWidth() * 30;
    const QMargins m = layout()->contentsMargins();
    int room = width() - m.left() - m.right() - scrubber - layout()->spacing();
    for (const QWidget* w : { static_cast<QWidget*>(back_), static_cast<QWidget*>(backOperation_),
             static_cast<QWidget*>(mark_), static_cast<QWidget*>(goTo_) })
        if (!w->isHidden())
            room -= w->sizeHint().width() + layout()->spacing();
    where_->setRoom(std::max(room, 0));
}

void RewindBar::follow()
{
    const bool run = sim_.hasRun();
    setEnabled(run);
    back_->setVisible(sim_.canRewind());
    backOperation_->setVisible(sim_.canRewind());
    mark_->setVisible(sim_.canRewind());
    goTo_->setVisible(sim_.canRewind());
    giveRoom();
    const std::uint64_t horizon = horizonNs();
    const double now = sim_.canRewind() ? double(sim_.runningNs()) : sim_.elapsedSeconds() * 1e9;
    if (!slider_->isSliderDown()) {
        const QSignalBlocker block(slider_);
        slider_->setValue(horizon ? int(now / double(horizon) * kSteps + 0.5) : 0);
    }
    if (!run) {
        where_->setTexts(QString(), QString());
        where_->setToolTip(QString());
        return;
    }
    const QString at = RunToolBar::timeText(now / 1e9);
    const QString of = RunToolBar::timeText(double(horizon) / 1e9);
    if (sim_.canRewind() && sim_.branchedAtNs()) {
        // Changed after it was taken back: from there on another run.
        where_->setTexts(tr("%1 of %2: a branch, changed at %3")
                             .arg(at, of, RunToolBar::timeText(double(*sim_.branchedAtNs()) / 1e9)),
            tr("%1 of %2: a branch").arg(at, of));
        where_->setToolTip(tr("The run was taken back and changed at %1: from there it goes on as another run "
                              "than the one first played. Reset plays the scenario as it is from the start.")
                               .arg(RunToolBar::timeText(double(*sim_.branchedAtNs()) / 1e9)));
    } else if (sim_.canRewind()) {
        where_->setTexts(tr("%1 of %2: any moment can be shown again").arg(at, of), tr("%1 of %2").arg(at, of));
        if (sim_.lastRewindSeconds() > 0 && sim_.lastRewindFromNs())
            where_->setToolTip(tr("The last time it was taken back, it went to its checkpoint at %1 and ran again "
                                  "from there: %2 s of this computer's time")
                                   .arg(RunToolBar::timeText(double(*sim_.lastRewindFromNs()) / 1e9))
                                   .arg(sim_.lastRewindSeconds(), 0, 'f', 2));
        else if (sim_.lastRewindSeconds() > 0)
            where_->setToolTip(tr("The last time it was taken back, running it again from its start took %1 s of "
                                  "this computer's time")
                                   .arg(sim_.lastRewindSeconds(), 0, 'f', 2));
        else
            where_->setToolTip(tr("Any moment of the run so far can be shown again: drag the scrubber, or press "
                                  "Back"));
        slider_->setToolTip(tr("Drag to a moment of the run: it goes back to the nearest checkpoint before it and "
                               "runs again, the same, to there, and every view shows the machine as it stood"));
    } else {
        where_->setTexts(tr("%1 of %2 recorded").arg(at, of), tr("%1 of %2").arg(at, of));
        where_->setToolTip(QString());
        slider_->setToolTip(tr("A run on this computer's threads cannot be run again the same: the scrubber moves "
                               "the CPU timeline through what was recorded, and the structure views show the "
                               "machine as it is now"));
    }
}

void RewindBar::scrubbed(int position)
{
    const std::uint64_t horizon = horizonNs();
    const auto ns = std::uint64_t(double(horizon) * position / kSteps);
    if (sim_.canRewind()) {
        if (ns != sim_.runningNs())
            sim_.rewindTo(ns);
        return;
    }
    // On this computer's threads: the timeline goes there, the rest stays.
    const double clockNow = double(sim_.clockNowNs());
    const double back = sim_.elapsedSeconds() * 1e9 - double(ns);
    if (showRecorded_)
        showRecorded_(clockNow - back);
    where_->setText(tr("%1 of %2 recorded: the timeline shows it; the structure views show the machine now")
                        .arg(RunToolBar::timeText(double(ns) / 1e9), RunToolBar::timeText(double(horizon) / 1e9)));
}

void RewindBar::back()
{
    if (!sim_.canRewind())
        return;
    const double rate = sim_.playbackRate();
    const auto frame = std::max<std::uint64_t>(
        1000, rate > 0 ? std::uint64_t(rate * 1e9 / Simulation::kTicksPerSecond) : horizonNs() / 100);
    const std::uint64_t now = sim_.runningNs();
    sim_.rewindTo(now > frame ? now - frame : 0);
}

void RewindBar::backOneOperation()
{
    if (!sim_.canRewind())
        return;
    const std::optional<unsigned> cpu = focused_ ? focused_() : std::nullopt;
    if (!sim_.backOneOperation(cpu))
        where_->setText(tr("%1: no earlier operation %2 is remembered")
                            .arg(RunToolBar::timeText(double(sim_.runningNs()) / 1e9),
                                cpu ? tr("of CPU %1").arg(*cpu) : tr("of any CPU")));
}

void RewindBar::bookmark()
{
    if (!sim_.canRewind())
        return;
    addBookmark(sim_.runningNs(), tr("Bookmark %1").arg(bookmarkMenu_->actions().size() + 1));
}

void RewindBar::addBookmark(std::uint64_t ns, const QString& name)
{
    QAction* mark = bookmarkMenu_->addAction(tr("%1 · %2").arg(name, RunToolBar::timeText(double(ns) / 1e9)));
    mark->setData(QVariant::fromValue<qulonglong>(ns));
    connect(mark, &QAction::triggered, this, [this, ns] {
        if (sim_.canRewind())
            sim_.rewindTo(ns);
    });
    goTo_->setEnabled(true);
}

} // namespace pcl::ui
