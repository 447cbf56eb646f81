#include "shell/welcomecard.h"

#include "kit/colormix.h"
#include "kit/colors.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QVBoxLayout>

namespace pcl::ui {

namespace {

constexpr int kGlyphSize = 42;
constexpr qreal kRadius = 10;
constexpr qreal kAccentBar = 4;

// Tracy's lock colours, as the lock views use them.
const QColor kHeld = colors::lockHeld();
const QColor kWanted = colors::lockWanted();
const QColor kBlocked = colors::lockBlocked();

// A page outline with a folded top-right corner, in @r.
QPainterPath pagePath(const QRectF& r)
{
    const qreal fold = r.width() * 0.32;
    QPainterPath p;
    p.moveTo(r.topLeft());
    p.lineTo(r.right() - fold, r.top());
    p.lineTo(r.right(), r.top() + fold);
    p.lineTo(r.bottomRight());
    p.lineTo(r.bottomLeft());
    p.closeSubpath();
    return p;
}

} // namespace

WelcomeCard::WelcomeCard(Glyph glyph, const QColor& accent, const QString& title, const QString& text,
    const QString& source, QWidget* parent)
    : QFrame(parent)
    , glyph_(glyph)
    , accent_(accent)
    , glyphArea_(new QWidget)
    , title_(new QLabel(title))
    , text_(new QLabel(text))
    , source_(new QLabel(source))
{
    setObjectName(QStringLiteral("welcomeCard"));
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);

    glyphArea_->setFixedSize(kGlyphSize, kGlyphSize);
    glyphArea_->setAttribute(Qt::WA_TransparentForMouseEvents);

    QFont titleFont = title_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    title_->setFont(titleFont);
    title_->setWordWrap(true); // scenario titles are sentences: they wrap in a narrow card

    text_->setWordWrap(true);
    text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Keep the height-for-width flag that setWordWrap() set: without it a
    // layout sizes the label for its one-line hint, and wrapped text is clipped.
    QSizePolicy textPolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);
    textPolicy.setHeightForWidth(true);
    text_->setSizePolicy(textPolicy);

    QFont sourceFont = source_->font();
    sourceFont.setPointSizeF(sourceFont.pointSizeF() * 0.9);
    source_->setFont(sourceFont);
    source_->setWordWrap(true);

    auto* head = new QHBoxLayout;
    head->setSpacing(14);
    head->addWidget(glyphArea_);
    head->addWidget(title_, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(18, 16 + int(kAccentBar), 18, 14);
    layout->setSpacing(8);
    layout->addLayout(head);
    layout->addWidget(text_, 1);
    layout->addWidget(source_);

    applyPalette();
}

QString WelcomeCard::title() const
{
    return title_->text();
}

QString WelcomeCard::text() const
{
    return text_->text();
}

void WelcomeCard::setNote(const QString& note)
{
    if (!note_) {
        note_ = new QLabel;
        note_->setObjectName(QStringLiteral("cardNote"));
        note_->setWordWrap(true);
        QFont italic = note_->font();
        italic.setItalic(true);
        note_->setFont(italic);
        // Under the source, above the buttons.
        auto* layout = static_cast<QVBoxLayout*>(this->layout());
        layout->insertWidget(layout->indexOf(source_) + 1, note_);
        applyPalette();
    }
    note_->setText(note);
}

QString WelcomeCard::note() const
{
    return note_ ? note_->text() : QString();
}

QPushButton* WelcomeCard::addButton(const QString& text)
{
    if (!buttonRow_) {
        buttonRow_ = new QHBoxLayout;
        buttonRow_->setSpacing(8);
        buttonRow_->addStretch(1);
        static_cast<QVBoxLayout*>(layout())->addLayout(buttonRow_);
    }
    auto* button = new QPushButton(text);
    buttonRow_->addWidget(button);
    buttons_.append(button);
    return button;
}

void WelcomeCard::changeEvent(QEvent* event)
{
    // The labels' colours derive from the card's palette (light or dark theme).
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
    QFrame::changeEvent(event);
}

void WelcomeCard::applyPalette()
{
    const QPalette base = palette();
    QPalette title = title_->palette();
    title.setColor(QPalette::WindowText, base.color(QPalette::Text));
    title_->setPalette(title);
    QPalette text = text_->palette();
    text.setColor(QPalette::WindowText, colors::mix(base.color(QPalette::Text), base.color(QPalette::Base), 0.22));
    text_->setPalette(text);
    QPalette source = source_->palette();
    const bool dark = base.color(QPalette::Base).lightness() < 128;
    source.setColor(QPalette::WindowText, dark ? accent_.lighter(135) : accent_.darker(115));
    source_->setPalette(source);
    if (note_)
        note_->setPalette(text);
}

void WelcomeCard::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);

    const QRectF card = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    QPainterPath outline;
    outline.addRoundedRect(card, kRadius, kRadius);

    const QColor base = palette().color(QPalette::Base);
    const QColor border = colors::mix(base, palette().color(QPalette::Text), 0.14);
    painter.fillPath(outline, base);

    // The accent bar along the top edge, clipped to the rounded card.
    painter.save();
    painter.setClipPath(outline);
    painter.fillRect(QRectF(card.left(), card.top(), card.width(), kAccentBar), accent_);
    painter.restore();

    painter.setPen(QPen(border, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(outline);

    const QRectF box = QRectF(glyphArea_->geometry());
    QColor tint = accent_;
    tint.setAlphaF(0.14);
    painter.setPen(Qt::NoPen);
    painter.setBrush(tint);
    painter.drawRoundedRect(box, 9, 9);
    paintGlyph(painter, box.adjusted(8, 8, -8, -8));
}

void WelcomeCard::paintGlyph(QPainter& p, const QRectF& r) const
{
    const qreal w = r.width();
    const qreal h = r.height();
    auto at = [&](qreal x, qreal y) { return QPointF(r.left() + x * w, r.top() + y * h); };
    QPen line(accent_, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.save();

    switch (glyph_) {
    case Glyph::Tree: {
        p.setPen(line);
        const QPointF root = at(0.5, 0.12);
        const QPointF left = at(0.2, 0.5);
        const QPointF right = at(0.8, 0.5);
        p.drawLine(root, left);
        p.drawLine(root, right);
        for (qreal x : { 0.08, 0.36, 0.64, 0.92 })
            p.drawLine(x < 0.5 ? left : right, at(x, 0.78));
        p.setPen(Qt::NoPen);
        p.setBrush(accent_);
        p.drawEllipse(root, 3.6, 3.6);
        p.drawEllipse(left, 2.8, 2.8);
        p.drawEllipse(right, 2.8, 2.8);
        for (qreal x : { 0.08, 0.36, 0.64, 0.92 })
            p.drawRect(QRectF(at(x, 0.78) - QPointF(2.5, 0), QSizeF(5, 0.22 * h)));
        break;
    }
    case Glyph::Lock: {
        p.setPen(line);
        p.setBrush(Qt::NoBrush);
        p.drawArc(QRectF(at(0.22, 0.0), at(0.78, 0.62)), 0, 180 * 16);
        p.drawLine(at(0.22, 0.31), at(0.22, 0.45));
        p.drawLine(at(0.78, 0.31), at(0.78, 0.45));
        p.setPen(Qt::NoPen);
        p.setBrush(accent_);
        p.drawRoundedRect(QRectF(at(0.06, 0.42), at(0.94, 1.0)), 3, 3);
        const QColor dots[] = { kHeld, kWanted, kBlocked };
        for (int i = 0; i < 3; ++i) {
            p.setBrush(Qt::white);
            p.drawEllipse(at(0.27 + 0.23 * i, 0.71), 3.4, 3.4);
            p.setBrush(dots[i]);
            p.drawEllipse(at(0.27 + 0.23 * i, 0.71), 2.4, 2.4);
        }
        break;
    }
    case Glyph::Fault: {
        p.setPen(line);
        p.setBrush(Qt::NoBrush);
        p.drawPath(pagePath(QRectF(at(0.38, 0.02), at(0.98, 0.98))));
        // The fault: an arrow into the page from the left.
        p.drawLine(at(0.0, 0.5), at(0.3, 0.5));
        p.drawPolyline(QPolygonF({ at(0.18, 0.36), at(0.3, 0.5), at(0.18, 0.64) }));
        // A page under I/O: half filled, like a progress bar.
        QColor fill = accent_;
        fill.setAlphaF(0.45);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRect(QRectF(at(0.38, 0.56), at(0.98, 0.98)).adjusted(1.1, 0, -1.1, -1.1));
        break;
    }
    case Glyph::Readahead: {
        // Four pages: the one being read, solid, and the window read ahead of
        // it, pale under a bracket.
        const qreal cell = w / 4.0;
        p.setPen(Qt::NoPen);
        for (int i = 0; i < 4; ++i) {
            QColor c = accent_;
            c.setAlphaF(i == 0 ? 1.0 : 0.38);
            p.setBrush(c);
            p.drawRoundedRect(QRectF(r.left() + i * cell + 0.8, r.top() + 0.42 * h, cell - 1.6, 0.58 * h), 1, 1);
        }
        p.setPen(line);
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(QPolygonF({ at(0.27, 0.3), at(0.27, 0.12), at(0.98, 0.12), at(0.98, 0.3) }));
        break;
    }
    case Glyph::Timeline: {
        // Three CPU lanes with spans: running (accent), spinning, blocked.
        struct Span {
            int lane;
            qreal from, to;
            QColor colour;
        };
        const Span spans[] = {
            { 0, 0.0, 0.55, accent_ },
            { 0, 0.6, 1.0, kWanted },
            { 1, 0.0, 0.25, kBlocked },
            { 1, 0.3, 0.85, accent_ },
            { 2, 0.15, 0.45, accent_ },
            { 2, 0.5, 0.7, kBlocked },
            { 2, 0.75, 1.0, accent_ },
        };
        p.setPen(Qt::NoPen);
        for (const Span& s : spans) {
            p.setBrush(s.colour);
            p.drawRoundedRect(QRectF(at(s.from, 0.06 + 0.34 * s.lane), at(s.to, 0.26 + 0.34 * s.lane)), 1.5, 1.5);
        }
        break;
    }
    case Glyph::Chart: {
        p.setPen(Qt::NoPen);
        p.setBrush(accent_);
        const qreal heights[] = { 0.35, 0.6, 0.45, 0.85 };
        for (int i = 0; i < 4; ++i)
            p.drawRect(QRectF(at(0.06 + 0.24 * i, 1.0 - heights[i]), QSizeF(0.16 * w, heights[i] * h)));
        p.setPen(line);
        p.drawLine(at(0.0, 1.0), at(1.0, 1.0));
        break;
    }
    }
    p.restore();
}

} // namespace pcl::ui
