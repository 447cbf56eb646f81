#include "views/tornpte/tornpteview.h"

#include <QAbstractItemView>
#include <QBoxLayout>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QThread>

#include <algorithm>
#include <exception>

namespace pcl::ui {

namespace {

/// The reader's methods as a student would call them.
QString methodLabel(PteReadMethod m)
{
    switch (m) {
    case PteReadMethod::Naive:
        return TornPteView::tr("Read pte_low, then pte_high");
    case PteReadMethod::RereadFirst:
        return TornPteView::tr("Re-read pte_low to check");
    case PteReadMethod::RecheckUnderLock:
        return TornPteView::tr("Fix: recheck under the PTE lock");
    case PteReadMethod::PteSame:
        return TornPteView::tr("Fix: pte_same under the lock");
    case PteReadMethod::Atomic64:
        return TornPteView::tr("Fix: one 64-bit read and write");
    case PteReadMethod::Seqcount:
        return TornPteView::tr("Fix: a sequence count");
    }
    return {};
}

QString methodTip(PteReadMethod m)
{
    switch (m) {
    case PteReadMethod::Naive:
        return TornPteView::tr("Two 32-bit loads without the lock: a writer can change the entry between them");
    case PteReadMethod::RereadFirst:
        return TornPteView::tr("Read pte_low a second time and start again if it changed: the first obvious fix, "
                               "and not enough");
    case PteReadMethod::RecheckUnderLock:
        return TornPteView::tr("The unlocked read is only a hint; read again under the PTE lock, which every writer "
                               "holds, and act on that");
    case PteReadMethod::PteSame:
        return TornPteView::tr("Act on the unlocked read only once pte_same confirms it under the lock; otherwise "
                               "back out and fault again");
    case PteReadMethod::Atomic64:
        return TornPteView::tr("Load and store the entry as one 64-bit word (cmpxchg8b on i386): no half is ever "
                               "seen without the other");
    case PteReadMethod::Seqcount:
        return TornPteView::tr("The writer makes a count odd before its update and even after; a read that saw the "
                               "count change starts again");
    }
    return {};
}

/// "AB \u2192 CD \u2192 AE": the entries an interleaving writes, in order.
QString interleavingLabel(const PteInterleaving& i)
{
    QString s = QString::fromStdString(pte_name(i.initial));
    for (const PteUpdate& u : i.updates)
        s += QStringLiteral(" \u2192 ") + QString::fromStdString(pte_name(u.value));
    return s;
}

/// The writer's choice that lets the explorer choose the order.
const QString kExplored = QStringLiteral("explored");

/// "1st", "2nd", "3rd", "37th".
QString ordinal(std::uint64_t n)
{
    const std::uint64_t tens = n % 100;
    const char* suffix = "th";
    if (tens < 11 || tens > 13) {
        if (n % 10 == 1)
            suffix = "st";
        else if (n % 10 == 2)
            suffix = "nd";
        else if (n % 10 == 3)
            suffix = "rd";
    }
    return QLocale().toString(qulonglong(n)) + QLatin1String(suffix);
}

QString schedulesText(std::uint64_t n)
{
    return n == 1 ? TornPteView::tr("one schedule")
                  : TornPteView::tr("%1 schedules").arg(QLocale().toString(qulonglong(n)));
}

/// The schedules as the strategy draws them, in a few words: "3 random
/// schedules", "12 schedules of random priorities, swapped at 2 random
/// moments".
QString triedText(const PteExploreConfig& c, std::uint64_t n)
{
    const QString count = QLocale().toString(qulonglong(n));
    if (c.strategy == sched::ScheduleStrategy::Pct)
        return TornPteView::tr(
            "%1 schedules of random priorities, swapped at %n random moment(s)", "", int(c.depth) - 1)
            .arg(count);
    return n == 1 ? TornPteView::tr("one random schedule") : TornPteView::tr("%1 random schedules").arg(count);
}

/// How the strategy orders the two sides, as a student would put it.
QString strategyText(const PteExploreConfig& c)
{
    if (c.strategy == sched::ScheduleStrategy::Pct)
        return TornPteView::tr("Each schedule gives the reader and the writer random priorities, runs the higher "
                               "one, and swaps them at %n random moment(s).",
            "", int(c.depth) - 1);
    return TornPteView::tr("Each schedule switches between the reader and the writer at random before every memory "
                           "operation.");
}

/// What the writer did while the reader read (between its first load and
/// its return): "replaced the entry with CD", "replaced the entry with CD,
/// then had written the high half of its next entry, E, but not yet its
/// low half".
QString writerBetween(const PteScript& s)
{
    const int end = TornPteLayout::returnStep(s);
    int begin = end;
    for (int i = 0; i < end; ++i)
        if (s.steps[std::size_t(i)].who == PteActor::Reader && pte_op_loads(s.steps[std::size_t(i)].op)) {
            begin = i;
            break;
        }
    QStringList whole;
    QString halfway;
    for (int i = begin + 1; i < end; ++i) {
        const PteStep& w = s.steps[std::size_t(i)];
        if (w.who != PteActor::Writer)
            continue;
        if (w.op == PteOp::WriteLow || w.op == PteOp::Store64) {
            whole << QString::fromStdString(pte_name(make_pte(w.pte_low, w.pte_high)));
            halfway.clear();
        } else if (w.op == PteOp::ClearPresent) {
            halfway = TornPteView::tr("had cleared the present bit for a new entry");
        } else if (w.op == PteOp::WriteHigh) {
            halfway = TornPteView::tr("had written the new entry's high half, %1, but not yet its low half")
                          .arg(QString::fromStdString(pte_high_name(w.pte_high)));
        }
    }
    QString out;
    if (!whole.isEmpty())
        out = TornPteView::tr("replaced the entry with %1").arg(whole.join(TornPteView::tr(", then with ")));
    if (!halfway.isEmpty())
        out = out.isEmpty() ? halfway : TornPteView::tr("%1, then %2").arg(out, halfway);
    return out.isEmpty() ? TornPteView::tr("did nothing") : out;
}

} // namespace

QString TornPteView::exploreNote(const PteExploreConfig& c, const PteExploreResult& r, const PteScript& shown)
{
    if (r.found) {
        const QString entry = QString::fromStdString(pte_name(shown.result));
        const QString returned = pte_present(shown.result)
            ? tr("the reader returned %1, an entry memory never held, with its present bit set").arg(entry)
            : tr("the reader returned %1, an entry memory never held").arg(entry);
        return tr("The explorer tried %1. In the %2, between the reader's first load and its last, the writer %3: "
                  "%4.")
            .arg(triedText(c, r.schedules), ordinal(r.schedules), writerBetween(shown), returned);
    }
    if (r.schedules == 0)
        return tr("The explorer tried no schedule.");
    return tr("The explorer tried %1 and in none did the reader return an entry memory never held. This is the "
              "last of them.")
        .arg(triedText(c, r.schedules));
}

TornPteView::TornPteView(QWidget* parent)
    : QWidget(parent)
    , bar_(new QWidget(this))
    , methodBox_(new QComboBox(bar_))
    , interleavingBox_(new QComboBox(bar_))
    , stepLabel_(new QLabel(bar_))
    , back_(new QPushButton(tr("Back"), bar_))
    , next_(new QPushButton(tr("Next"), bar_))
    , note_(new QLabel(this))
{
    setObjectName(QStringLiteral("tornPteView"));
    setFocusPolicy(Qt::StrongFocus);
    setAutoFillBackground(false);
    methodBox_->setObjectName(QStringLiteral("tornPteMethod"));
    interleavingBox_->setObjectName(QStringLiteral("tornPteInterleaving"));
    stepLabel_->setObjectName(QStringLiteral("tornPteStep"));
    back_->setObjectName(QStringLiteral("tornPteBack"));
    next_->setObjectName(QStringLiteral("tornPteNext"));
    back_->setToolTip(tr("The step before (Left or Page Up)"));
    next_->setToolTip(tr("The next step (Right or Page Down)"));

    for (const PteReadMethod m : kPteReadMethods) {
        methodBox_->addItem(methodLabel(m), int(m));
        methodBox_->setItemData(methodBox_->count() - 1, methodTip(m), Qt::ToolTipRole);
    }
    methodBox_->setToolTip(tr("How the reader reads the entry"));
    for (const PteInterleaving& i : pte_interleavings()) {
        interleavingBox_->addItem(interleavingLabel(i), QString::fromStdString(i.name));
        interleavingBox_->setItemData(
            interleavingBox_->count() - 1, QString::fromStdString(i.meaning), Qt::ToolTipRole);
    }
    interleavingBox_->addItem(tr("Explored: any order"), kExplored);
    interleavingBox_->setItemData(interleavingBox_->count() - 1,
        tr("The writer writes AB \u2192 CD \u2192 AE \u2192 AB while the explorer tries one order of the two "
           "sides' memory operations after another, until the reader's read is torn"),
        Qt::ToolTipRole);
    interleavingBox_->setToolTip(tr("What the writer writes while the reader reads"));
    note_->setObjectName(QStringLiteral("tornPteNote"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    note_->hide();
    // Each box as wide as its longest choice, so that the reader's method
    // always reads in full: a box cut to "Read pte_lo" hides what the
    // picture is about. Where the centre is narrow (beside a lesson's docks
    // at 1280 pixels, or zoomed) the bar takes two or three rows instead
    // (arrangeBar).
    for (QComboBox* box : { methodBox_, interleavingBox_ })
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    auto* readerRow = new QHBoxLayout;
    readerRow->addWidget(new QLabel(tr("Reader:"), bar_));
    readerRow->addWidget(methodBox_);
    auto* writerRow = new QHBoxLayout;
    writerRow->addWidget(new QLabel(tr("Writer:"), bar_));
    writerRow->addWidget(interleavingBox_);
    choices_ = new QBoxLayout(QBoxLayout::LeftToRight);
    choices_->setSpacing(16);
    choices_->addLayout(readerRow);
    choices_->addLayout(writerRow);
    choices_->addStretch(1);
    auto* stepping = new QHBoxLayout;
    stepping->addStretch(1);
    // As wide as the widest count it will show, so that the buttons beside
    // it stay put from step to step.
    stepLabel_->setMinimumWidth(stepLabel_->fontMetrics().horizontalAdvance(tr("Step 888 of 888")));
    stepLabel_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    stepping->addWidget(stepLabel_);
    stepping->addSpacing(4);
    stepping->addWidget(back_);
    stepping->addWidget(next_);
    rows_ = new QBoxLayout(QBoxLayout::LeftToRight, bar_);
    rows_->setContentsMargins(12, 8, 12, 4);
    rows_->addLayout(choices_, 1);
    rows_->addLayout(stepping);

    connect(back_, &QPushButton::clicked, this, &TornPteView::back);
    connect(next_, &QPushButton::clicked, this, &TornPteView::next);
    connect(methodBox_, &QComboBox::activated, this, &TornPteView::choose);
    connect(interleavingBox_, &QComboBox::activated, this, &TornPteView::choose);

    setScript(PteReadMethod::Naive, "ab_cd");
}

void TornPteView::setScript(PteReadMethod method, std::string_view interleaving)
{
    setScript(run_pte_interleaving(method, find_pte_interleaving(interleaving)));
}

TornPteView::~TornPteView()
{
    if (stopExplore_)
        stopExplore_->store(true);
    for (QThread* t : findChildren<QThread*>(QString(), Qt::FindDirectChildrenOnly))
        t->wait();
}

void TornPteView::setScript(const PteScript& script)
{
    // A script set from outside replaces an exploration, shown or under way.
    if (stopExplore_)
        stopExplore_->store(true);
    ++exploreGeneration_;
    exploring_ = false;
    exploration_.reset();
    note_->clear();
    note_->hide();
    showScript(script);
}

void TornPteView::explore(const PteExploreConfig& config)
{
    check_pte_explore_config(config);
    if (stopExplore_)
        stopExplore_->store(true);
    auto stop = std::make_shared<std::atomic<bool>>(false);
    stopExplore_ = stop;
    const unsigned generation = ++exploreGeneration_;
    exploreConfig_ = config;
    exploring_ = true;
    note_->setToolTip(strategyText(config));
    showNote(tr("The explorer is trying up to %1 of this read...").arg(schedulesText(config.schedules)));
    // A hundred thousand schedules take under half a second: off the GUI
    // thread all the same, so that the window stays live.
    QThread* worker = QThread::create([this, config, stop, generation] {
        std::optional<PteExploreResult> result;
        PteScript shown;
        QString error;
        try {
            result = explore_pte_schedules(config, stop.get());
            if (result->found)
                shown = result->schedule;
            else if (result->schedules > 0)
                shown = run_pte_schedule(config, config.seed + result->schedules - 1, result->pct_steps);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, result, shown, error, generation] {
                if (generation != exploreGeneration_)
                    return; // another exploration, or a script, came since
                exploring_ = false;
                if (!result) {
                    showNote(tr("The explorer could not run: %1").arg(error));
                    return;
                }
                exploration_ = result;
                showScript(shown);
                showNote(exploreNote(*exploreConfig_, *result, shown));
                Q_EMIT explored();
            },
            Qt::QueuedConnection);
    });
    worker->setParent(this);
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

QString TornPteView::note() const
{
    return note_->isHidden() ? QString() : note_->text();
}

void TornPteView::showNote(const QString& text)
{
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
    relayout();
}

void TornPteView::showScript(const PteScript& script)
{
    script_ = script;
    step_ = 0;
    syncBar();
    relayout();
    Q_EMIT scriptChanged();
    Q_EMIT stepChanged(step_);
}

void TornPteView::setStep(int index)
{
    const int clamped = std::clamp(index, 0, std::max(0, stepCount() - 1));
    if (clamped == step_)
        return;
    step_ = clamped;
    syncBar();
    relayout();
    Q_EMIT stepChanged(step_);
}

void TornPteView::next()
{
    setStep(step_ + 1);
}

void TornPteView::back()
{
    setStep(step_ - 1);
}

void TornPteView::choose()
{
    const auto method = PteReadMethod(methodBox_->currentData().toInt());
    const QString writer = interleavingBox_->currentData().toString();
    if (writer == kExplored) {
        // The order the lesson explored, or the explorer's own defaults,
        // for the reader chosen.
        PteExploreConfig config = exploreConfig_.value_or(PteExploreConfig {});
        config.method = method;
        explore(config);
        return;
    }
    setScript(method, writer.toStdString());
}

void TornPteView::syncBar()
{
    // Set from a script, not a click: the boxes follow without firing
    // activated(), which only a person's choice emits.
    const int m = methodBox_->findData(int(script_.method));
    if (m >= 0)
        methodBox_->setCurrentIndex(m);
    const int i = interleavingBox_->findData(QString::fromStdString(script_.interleaving));
    if (i >= 0)
        interleavingBox_->setCurrentIndex(i);
    stepLabel_->setText(tr("Step %1 of %2").arg(stepCount() ? step_ + 1 : 0).arg(stepCount()));
    back_->setEnabled(step_ > 0);
    next_->setEnabled(!atEnd());
}

QRect TornPteView::canvasRect() const
{
    int top = bar_->sizeHint().height();
    if (!note_->isHidden())
        top += note_->heightForWidth(std::max(1, width() - 24)) + 8;
    return QRect(0, top, width(), std::max(0, height() - top));
}

TornPteView::BarRows TornPteView::barRowsAt(int width) const
{
    // From the rows' own least sizes, so that the answer does not depend on
    // how the bar is arranged now.
    const QSize reader = choices_->itemAt(0)->minimumSize();
    const QSize writer = choices_->itemAt(1)->minimumSize();
    const QSize stepping = rows_->itemAt(1)->minimumSize();
    const QMargins m = rows_->contentsMargins();
    const int choicesAcross = reader.width() + choices_->spacing() + writer.width();
    BarRows rows;
    if (m.left() + choicesAcross + rows_->spacing() + stepping.width() + m.right() <= width) {
        rows.count = 1;
        rows.height = std::max({ reader.height(), writer.height(), stepping.height() });
    } else if (m.left() + choicesAcross + m.right() <= width) {
        rows.count = 2;
        rows.height = std::max(reader.height(), writer.height()) + rows_->spacing() + stepping.height();
    } else {
        rows.count = 3;
        rows.height = reader.height() + choices_->spacing() + writer.height() + rows_->spacing() + stepping.height();
    }
    rows.height += m.top() + m.bottom();
    rows.narrowest = m.left() + std::max({ reader.width(), writer.width(), stepping.width() }) + m.right();
    return rows;
}

void TornPteView::arrangeBar()
{
    // One row where the choices and the stepping fit side by side; else the
    // stepping under the choices; else each choice on a row of its own.
    const int count = barRowsAt(width()).count;
    rows_->setDirection(count == 1 ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    choices_->setDirection(count == 3 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

void TornPteView::relayout()
{
    // Placed here rather than by a layout so that the picture's area is
    // known before the widget is first shown, and follows a font change.
    arrangeBar();
    bar_->setGeometry(0, 0, width(), bar_->sizeHint().height());
    if (!note_->isHidden())
        note_->setGeometry(
            12, bar_->height() + 2, std::max(1, width() - 24), note_->heightForWidth(std::max(1, width() - 24)));
    layout_.layout(script_, step_, canvasRect().size(), palette(), font());
    update();
}

QSize TornPteView::sizeHint() const
{
    return QSize(900, 600);
}

QSize TornPteView::minimumSizeHint() const
{
    // The picture's least area under the bar as it is arranged at that width.
    const int width = std::max(kMinCanvas.width(), barRowsAt(0).narrowest);
    return QSize(width, kMinCanvas.height() + barRowsAt(width).height);
}

void TornPteView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.translate(canvasRect().topLeft());
    p.setRenderHint(QPainter::TextAntialiasing, true);
    layout_.paint(p);
}

void TornPteView::resizeEvent(QResizeEvent*)
{
    relayout();
}

void TornPteView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        relayout();
    QWidget::changeEvent(event);
}

void TornPteView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
        next();
        break;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
        back();
        break;
    case Qt::Key_Home:
        setStep(0);
        break;
    case Qt::Key_End:
        setStep(stepCount() - 1);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace pcl::ui
