#include "shell/stepcaption.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QVBoxLayout>

namespace pcl::ui {

namespace {

QFont scaledFont(QFont f, double k, bool bold)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * k);
    else if (f.pixelSize() > 0)
        f.setPixelSize(int(f.pixelSize() * k + 0.5));
    f.setBold(bold);
    return f;
}

} // namespace

StepCaption::StepCaption(QWidget* parent)
    : QWidget(parent)
    , title_(new QLabel(this))
    , text_(new QLabel(this))
    , back_(new QPushButton(tr("\u25c0 Back"), this))
    , next_(new QPushButton(tr("Next \u25b6"), this))
{
    setObjectName(QStringLiteral("stepCaption"));
    title_->setObjectName(QStringLiteral("stepCaptionTitle"));
    text_->setObjectName(QStringLiteral("stepCaptionText"));
    back_->setObjectName(QStringLiteral("stepCaptionBack"));
    next_->setObjectName(QStringLiteral("stepCaptionNext"));
    for (QLabel* l : { title_, text_ }) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
        l->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    }
    // A click must not leave the focus on a button, where Space would press
    // it instead of pausing the run.
    back_->setFocusPolicy(Qt::NoFocus);
    next_->setFocusPolicy(Qt::NoFocus);
    back_->setToolTip(tr("The step before (Page Up, or the left arrow)"));
    next_->setToolTip(tr("The next step (Page Down, or the right arrow)"));

    auto* words = new QVBoxLayout;
    words->setSpacing(4);
    words->addWidget(title_);
    words->addWidget(text_);
    words->addStretch(1);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(12, 8, 12, 8);
    row->setSpacing(18);
    // Bottom-aligned: a longer text raises the caption's top, never the buttons.
    row->addWidget(back_, 0, Qt::AlignBottom);
    row->addLayout(words, 1);
    row->addWidget(next_, 0, Qt::AlignBottom);
    connect(back_, &QPushButton::clicked, this, &StepCaption::backClicked);
    connect(next_, &QPushButton::clicked, this, &StepCaption::nextClicked);
    restyle();
}

void StepCaption::setStep(const QString& title, const QString& text, bool canBack, bool canNext)
{
    title_->setText(title);
    text_->setText(text);
    back_->setEnabled(canBack);
    next_->setEnabled(canNext);
    fitHeight();
}

void StepCaption::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

void StepCaption::fitHeight()
{
    const int height = layout()->heightForWidth(width());
    if (height > 0 && height != maximumHeight())
        setFixedHeight(height);
}

QString StepCaption::title() const
{
    return title_->text();
}

QString StepCaption::text() const
{
    return text_->text();
}

void StepCaption::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        restyle();
        fitHeight();
    }
}

void StepCaption::restyle()
{
    title_->setFont(scaledFont(font(), kTitleScale, true));
    text_->setFont(scaledFont(font(), kTextScale, false));
    const QFont buttons = scaledFont(font(), kTextScale, true);
    back_->setFont(buttons);
    next_->setFont(buttons);
    // Both buttons as wide as the wider, so the text between them is centred
    // on the window and neither moves when the other's label would.
    const int width = std::max(back_->sizeHint().width(), next_->sizeHint().width()) + 16;
    back_->setFixedWidth(width);
    next_->setFixedWidth(width);
}

} // namespace pcl::ui
