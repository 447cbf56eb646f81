#include "views/tornpte/tornpteview.h"

#include <QAbstractItemView>
#include <QBoxLayout>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QPushButton>

#include <algorithm>

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

} // namespace

TornPteView::TornPteView(QWidget* parent)
    : QWidget(parent)
    , bar_(new QWidget(this))
    , methodBox_(new QComboBox(bar_))
    , interleavingBox_(new QComboBox(bar_))
    , stepLabel_(new QLabel(bar_))
    , back_(new QPushButton(tr("Back"), bar_))
    , next_(new QPushButton(tr("Next"), bar_))
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
    interleavingBox_->setToolTip(tr("What the writer writes while the reader reads"));
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

void TornPteView::setScript(const PteScript& script)
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
    setScript(method, interleavingBox_->currentData().toString().toStdString());
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
    const int top = bar_->sizeHint().height();
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
