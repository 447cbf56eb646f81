#include "views/tornpte/tornptelayout.h"

#include "kit/colormix.h"
#include "kit/colors.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString hex32(std::uint32_t v)
{
    return QStringLiteral("0x%1").arg(v, 8, 16, QLatin1Char('0'));
}

QString lowName(std::uint32_t v)
{
    return q(pte_low_name(v));
}

QString highName(std::uint32_t v)
{
    return q(pte_high_name(v));
}

QString entryName(pteval_t v)
{
    return q(pte_name(v));
}

/// The reader blue and the writer orange of the charts' first two series,
/// lighter on a dark background where the plain ones are too dim to read.
QColor actorColor(PteActor who, const QPalette& p)
{
    const QColor c = colors::series(who == PteActor::Reader ? 0 : 1);
    return colors::isDark(p) ? c.lighter(135) : c;
}

/// Red for torn, green for whole: the lock colours, darkened on a light
/// background so that large text in them stays legible.
QColor verdictColor(bool torn, const QPalette& p)
{
    const QColor c = torn ? colors::lockBlocked() : colors::lockHeld();
    return colors::isDark(p) ? c : c.darker(torn ? 125 : 140);
}

/// The entry the writer is putting in memory at step @i: the one its next
/// complete store leaves there.
std::optional<pteval_t> updateTarget(const PteScript& script, std::size_t i)
{
    for (std::size_t j = i; j < script.steps.size(); ++j) {
        const PteStep& s = script.steps[j];
        if (s.who == PteActor::Writer && (s.op == PteOp::WriteLow || s.op == PteOp::Store64))
            return make_pte(s.pte_low, s.pte_high);
    }
    return std::nullopt;
}

QString returnsText(pteval_t v)
{
    return TornPteLayout::tr("returns %1").arg(entryName(v));
}

/// "once", "twice", "3 times".
QString times(std::uint32_t n)
{
    if (n == 1)
        return TornPteLayout::tr("once");
    if (n == 2)
        return TornPteLayout::tr("twice");
    return TornPteLayout::tr("%1 times").arg(n);
}

} // namespace

// ---- texts ------------------------------------------------------------

QString TornPteLayout::laneText(const PteScript& script, int index)
{
    const PteStep& s = script.steps.at(std::size_t(index));
    const PteReaderRegs& r = s.reader;
    const QString underLock = r.holds_lock ? tr(" under the lock") : QString();
    const QString arrow = QStringLiteral(" \u2192 ");
    if (s.who == PteActor::Writer) {
        switch (s.op) {
        case PteOp::Lock: {
            const std::optional<pteval_t> target = updateTarget(script, std::size_t(index));
            const QString to = target ? tr(" to write %1").arg(entryName(*target)) : QString();
            if (s.lock_holder != PteActor::Writer)
                return tr("wants the PTE lock%1: waits").arg(to);
            return tr("take the PTE lock%1").arg(to);
        }
        case PteOp::Unlock:
            return tr("release the PTE lock");
        case PteOp::SeqBegin:
            return tr("sequence%1%2, odd").arg(arrow).arg(s.seq);
        case PteOp::SeqEnd:
            return tr("sequence%1%2, even").arg(arrow).arg(s.seq);
        case PteOp::ClearPresent:
            return tr("clear present in pte_low: %1").arg(lowName(s.pte_low));
        case PteOp::WriteHigh:
            return tr("write pte_high: %1").arg(highName(s.pte_high));
        case PteOp::WriteLow:
            return tr("write pte_low, present: %1%2%3")
                .arg(lowName(s.pte_low), arrow, entryName(make_pte(s.pte_low, s.pte_high)));
        case PteOp::Store64:
            return tr("store all 64 bits: %1").arg(entryName(make_pte(s.pte_low, s.pte_high)));
        default:
            break;
        }
        return q(s.what);
    }
    switch (s.op) {
    case PteOp::LoadLow:
        if (r.low_again) {
            const QString again = tr("read pte_low again: %1").arg(lowName(*r.low_again));
            if (s.verdict == PteVerdict::Returns)
                return again + arrow + returnsText(make_pte(*r.low, *r.high));
            if (s.verdict == PteVerdict::Retries)
                return again + tr(" \u2260 %1").arg(lowName(*r.low)) + arrow + tr("start again");
            return again;
        }
        return tr("read pte_low%1: %2").arg(underLock, r.low ? lowName(*r.low) : QString());
    case PteOp::LoadHigh: {
        QString t = tr("read pte_high%1: %2").arg(underLock, r.high ? highName(*r.high) : QString());
        if (r.low && r.high) {
            const pteval_t entry = make_pte(*r.low, *r.high);
            if (s.verdict == PteVerdict::Returns)
                t += arrow + returnsText(entry);
            else if (s.verdict == PteVerdict::BacksOut && r.hint)
                t += arrow + tr("%1 \u2260 %2: back out").arg(entryName(entry), entryName(*r.hint));
        }
        return t;
    }
    case PteOp::Load64:
        return tr("read all 64 bits: %1").arg(r.hint ? entryName(*r.hint) : QString()) + arrow
            + returnsText(r.hint ? *r.hint : script.result);
    case PteOp::Lock:
        return tr("take the PTE lock");
    case PteOp::Unlock:
        if (s.verdict == PteVerdict::Retries)
            return tr("release the PTE lock") + arrow + tr("start again");
        if (s.verdict == PteVerdict::Returns)
            return tr("release the PTE lock") + arrow + returnsText(script.result);
        return tr("release the PTE lock");
    case PteOp::SeqRead:
        return tr("read the sequence: %1").arg(r.seq ? *r.seq : s.seq);
    case PteOp::SeqRecheck:
        if (s.verdict == PteVerdict::Retries)
            return tr("read the sequence again: %1 \u2260 %2").arg(s.seq).arg(r.seq ? *r.seq : 0) + arrow
                + tr("start again");
        return tr("read the sequence again: %1").arg(s.seq) + arrow + returnsText(script.result);
    default:
        break;
    }
    return q(s.what);
}

QString TornPteLayout::sentence(const PteStep& s)
{
    QString what = q(s.what);
    if (!what.endsWith(QLatin1Char('.')))
        what += QLatin1Char('.');
    return (s.who == PteActor::Reader ? tr("The reader ") : tr("The writer ")) + what;
}

QString TornPteLayout::resultText(const PteScript& script)
{
    const QString name = entryName(script.result);
    if (script.torn)
        return tr("torn: the reader returned %1, an entry that was never in memory").arg(name);
    return tr("whole: the reader returned %1, an entry that was really in memory").arg(name);
}

QString TornPteLayout::retriesText(const PteScript& script)
{
    // The naive read and the 64-bit one have nothing to check, so nothing
    // to say about starting again.
    if (script.method == PteReadMethod::Naive || script.method == PteReadMethod::Atomic64)
        return {};
    if (script.retries == 0)
        return script.method == PteReadMethod::RecheckUnderLock ? tr("It never backed out.")
                                                                : tr("It never started again.");
    if (script.method == PteReadMethod::RecheckUnderLock)
        return tr("It backed out %1, undoing what it had done for the entry it read without the lock.")
            .arg(times(script.retries));
    return tr("It started again %1.").arg(times(script.retries));
}

int TornPteLayout::returnStep(const PteScript& script)
{
    for (std::size_t i = 0; i < script.steps.size(); ++i) {
        const PteStep& s = script.steps[i];
        if (s.who == PteActor::Reader && s.verdict == PteVerdict::Returns)
            return int(i);
    }
    return int(script.steps.size()) - 1;
}

// ---- drawing primitives ------------------------------------------------

QFont TornPteLayout::font(Size size, bool bold) const
{
    static constexpr double kScale[] = { 1.05, 1.25, 1.35, 1.55, 2.3, 3.4 };
    QFont f = base_;
    const double k = kScale[int(size)] * s_;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * k);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * k))));
    f.setBold(bold);
    return f;
}

double TornPteLayout::lineHeight(Size size, bool bold) const
{
    return QFontMetricsF(font(size, bold)).height();
}

double TornPteLayout::textHeight(const QString& t, double width, Size size, bool bold) const
{
    return QFontMetricsF(font(size, bold)).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, t).height();
}

void TornPteLayout::fill(const QRectF& r, const QColor& c, const QString& role)
{
    DisplayItem it;
    it.kind = DisplayKind::Fill;
    it.rect = r;
    it.color = c;
    it.role = role;
    shapes_.push_back(std::move(it));
}

void TornPteLayout::outline(const QRectF& r, const QColor& c, double width, const QString& role)
{
    DisplayItem it;
    it.kind = DisplayKind::Outline;
    // A pen centred on the rectangle's edge: inset by half of it so that the
    // whole stroke stays inside the box.
    it.rect = r.adjusted(width / 2, width / 2, -width / 2, -width / 2);
    it.color = c;
    it.width = width;
    it.role = role;
    shapes_.push_back(std::move(it));
}

void TornPteLayout::line(const QPointF& a, const QPointF& b, const QColor& c, double width, const QString& role)
{
    DisplayItem it;
    it.kind = DisplayKind::Line;
    it.rect = QRectF(a, b);
    it.color = c;
    it.width = width;
    it.role = role;
    shapes_.push_back(std::move(it));
}

TornPteLayout::Text& TornPteLayout::text(
    const QRectF& r, const QString& t, const QColor& c, int align, Size size, const QString& role, bool bold)
{
    Text x;
    x.rect = r;
    // A line that does not wrap is elided rather than drawn past its box
    // into its neighbour's.
    x.text = (align & Qt::TextWordWrap) ? t : QFontMetricsF(font(size, bold)).elidedText(t, Qt::ElideRight, r.width());
    x.color = c;
    x.align = align;
    x.size = size;
    x.bold = bold;
    x.role = role;
    texts_.push_back(std::move(x));
    return texts_.back();
}

const TornPteLayout::Text* TornPteLayout::text(const QString& role, int index) const
{
    for (const Text& t : texts_)
        if (t.role == role && (index < 0 || t.index == index))
            return &t;
    return nullptr;
}

std::vector<const TornPteLayout::Text*> TornPteLayout::textsWithRole(const QString& role) const
{
    std::vector<const Text*> out;
    for (const Text& t : texts_)
        if (t.role == role)
            out.push_back(&t);
    return out;
}

void TornPteLayout::paint(QPainter& p) const
{
    paintDisplayList(p, shapes_);
    for (const Text& t : texts_) {
        p.setFont(font(t.size, t.bold));
        p.setPen(t.color);
        p.drawText(t.rect, t.align, t.text);
    }
}

// ---- the picture -------------------------------------------------------

void TornPteLayout::layout(
    const PteScript& script, int step, const QSizeF& size, const QPalette& palette, const QFont& font)
{
    shapes_.clear();
    texts_.clear();
    firstRow_ = 0;
    lastRow_ = -1;
    pal_ = palette;
    base_ = font;
    // 900 x 560 is the design size (a 900 x 600 view less its button bar);
    // larger sizes scale everything up, so 1280 x 720 fills the screen
    // rather than leaving a small picture in a corner.
    s_ = std::clamp(std::min(size.width() / 900.0, size.height() / 560.0), 0.8, 1.6);
    if (script.steps.empty() || size.width() < 100 || size.height() < 100)
        return;
    step = std::clamp(step, 0, int(script.steps.size()) - 1);

    const double m = 12 * s_;
    const double w = size.width(), h = size.height();
    const double half = (w - 3 * m) / 2;
    const double memBottom = memoryPanel(script, step, QRectF(m, m, half, h));
    const double regBottom = registersPanel(script, step, QRectF(2 * m + half, m, half, h));
    double y = std::max(memBottom, regBottom) + 0.8 * m;
    y = sentenceBand(script, step, QRectF(m, y, w - 2 * m, h)) + 0.6 * m;
    if (step >= returnStep(script))
        y = resultBand(script, QRectF(m, y, w - 2 * m, h)) + 0.6 * m;
    lanes(script, step, QRectF(m, y, w - 2 * m, h - m - y));
}

void TornPteLayout::half(const QRectF& box, const QString& role, const QString& caption, const QString& name,
    const QString& hex, const QColor& accent)
{
    const QColor textColor = pal_.color(QPalette::Text);
    fill(box, pal_.color(QPalette::Base), role);
    const bool marked = accent.isValid();
    outline(box, marked ? accent : colors::mix(pal_.color(QPalette::Base), textColor, 0.45),
        marked ? 3.5 * s_ : 1.5 * s_, role);
    const double pad = 8 * s_;
    const double capH = lineHeight(Size::Caption);
    const QColor dim = colors::mix(pal_.color(QPalette::Base), textColor, 0.6);
    text(QRectF(box.left() + pad, box.top() + pad * 0.6, box.width() - 2 * pad, capH), caption, dim,
        Qt::AlignLeft | Qt::AlignVCenter, Size::Caption, role + QStringLiteral("-caption"));
    const double letterH = lineHeight(Size::Letter, true);
    const double bodyH = lineHeight(Size::Body);
    const double top = box.top() + pad * 0.6 + capH;
    const bool empty = name.isEmpty();
    const QString base = role.section(QLatin1Char('-'), 0, 0);
    text(QRectF(box.left(), top, box.width(), letterH), empty ? QStringLiteral("\u2014") : name,
        empty ? dim : textColor, Qt::AlignCenter, Size::Letter, base + QStringLiteral("-name"), true);
    text(QRectF(box.left(), top + letterH, box.width(), bodyH), hex, dim, Qt::AlignCenter, Size::Body,
        base + QStringLiteral("-hex"));
}

double TornPteLayout::memoryPanel(const PteScript& script, int step, const QRectF& r)
{
    const PteStep& s = script.steps[std::size_t(step)];
    const QColor textColor = pal_.color(QPalette::WindowText);
    const QColor dim = colors::mix(pal_.color(QPalette::Window), textColor, 0.65);
    const bool word = script.method == PteReadMethod::Atomic64;
    const double capH = lineHeight(Size::Body, true);
    text(QRectF(r.left(), r.top(), r.width(), capH),
        word ? tr("In memory: the entry, one 64-bit word") : tr("In memory: the entry, two 32-bit halves"), textColor,
        Qt::AlignLeft | Qt::AlignVCenter, Size::Body, QStringLiteral("memory-caption"), true);

    const double gap = word ? 0 : 10 * s_;
    const double bw = (r.width() - gap) / 2;
    const double bh = lineHeight(Size::Caption) + lineHeight(Size::Letter, true) + lineHeight(Size::Body) + 14 * s_;
    const double top = r.top() + capH + 6 * s_;
    const QRectF lowBox(r.left(), top, bw, bh);
    const QRectF highBox(r.left() + bw + gap, top, bw, bh);

    // The half the current step wrote gets the writer's colour, the half it
    // read the reader's: the eye follows the operation the sentence names.
    QColor lowAccent, highAccent;
    const QColor writer = actorColor(PteActor::Writer, pal_), reader = actorColor(PteActor::Reader, pal_);
    switch (s.op) {
    case PteOp::ClearPresent:
    case PteOp::WriteLow:
        lowAccent = writer;
        break;
    case PteOp::WriteHigh:
        highAccent = writer;
        break;
    case PteOp::Store64:
        lowAccent = highAccent = writer;
        break;
    case PteOp::LoadLow:
        lowAccent = reader;
        break;
    case PteOp::LoadHigh:
        highAccent = reader;
        break;
    case PteOp::Load64:
        lowAccent = highAccent = reader;
        break;
    default:
        break;
    }
    // One word: the halves are drawn as one box, split by a thin rule, and
    // marked together, since no load or store sees one without the other.
    const QColor wordAccent = word ? lowAccent : QColor();
    if (word)
        lowAccent = highAccent = QColor();
    half(lowBox, QStringLiteral("low-box"), tr("pte_low"), lowName(s.pte_low), hex32(s.pte_low), lowAccent);
    half(highBox, QStringLiteral("high-box"), tr("pte_high"), highName(s.pte_high), hex32(s.pte_high), highAccent);

    // The present bit, in pte_low's top right corner: what a fault handler
    // tests first, and what the writer switches off for the length of its
    // update.
    const bool present = (s.pte_low & kPagePresent) != 0;
    const QString pres = present ? tr("present") : tr("not present");
    const QFont capFont = font(Size::Caption, true);
    const double chipW = QFontMetricsF(capFont).horizontalAdvance(pres) + 12 * s_;
    const double chipH = lineHeight(Size::Caption, true) + 2 * s_;
    const QRectF chip(lowBox.right() - 6 * s_ - chipW, lowBox.top() + 5 * s_, chipW, chipH);
    // Red when cleared, the alarm; a quiet grey when set, so that green
    // keeps its one meaning in the lab, a held lock.
    const QColor chipColor
        = present ? colors::mix(pal_.color(QPalette::Base), pal_.color(QPalette::Text), 0.55) : colors::lockBlocked();
    fill(chip, chipColor, QStringLiteral("present-chip"));
    text(chip, pres, QColor(Qt::white), Qt::AlignCenter, Size::Caption, QStringLiteral("present"), true);
    if (word) {
        outline(QRectF(lowBox.topLeft(), highBox.bottomRight()), wordAccent.isValid() ? wordAccent : textColor,
            wordAccent.isValid() ? 3.5 * s_ : 2 * s_, QStringLiteral("word-box"));
    }

    double y = top + bh + 6 * s_;
    const double lh = lineHeight(Size::Body);
    const double dot = lh * 0.7;

    // The PTE lock: free, held by one of them, or held while the other waits.
    QString lock;
    QColor lockColor;
    const bool writerWaits = s.who == PteActor::Writer && s.op == PteOp::Lock && s.lock_holder != PteActor::Writer;
    if (!s.lock_holder) {
        lock = tr("PTE lock: free");
        lockColor = QColor();
    } else if (writerWaits) {
        lock = tr("PTE lock: held by the reader; the writer waits for it");
        lockColor = colors::lockWanted();
    } else {
        lock = *s.lock_holder == PteActor::Writer ? tr("PTE lock: held by the writer")
                                                  : tr("PTE lock: held by the reader");
        lockColor = colors::lockHeld();
    }
    const QRectF dotRect(r.left(), y + (lh - dot) / 2, dot, dot);
    if (lockColor.isValid())
        fill(dotRect, lockColor, QStringLiteral("lock-dot"));
    else
        outline(dotRect, dim, 1.5 * s_, QStringLiteral("lock-dot"));
    text(QRectF(r.left() + dot + 6 * s_, y, r.width() - dot - 6 * s_, lh), lock, textColor,
        Qt::AlignLeft | Qt::AlignVCenter, Size::Body, QStringLiteral("lock"), lockColor.isValid());
    y += lh;

    if (script.method == PteReadMethod::Seqcount) {
        const QString seq = s.seq % 2 ? tr("Sequence count: %1, odd: a write is under way").arg(s.seq)
                                      : tr("Sequence count: %1, even: no write under way").arg(s.seq);
        text(QRectF(r.left(), y, r.width(), lh), seq, textColor, Qt::AlignLeft | Qt::AlignVCenter, Size::Body,
            QStringLiteral("sequence"));
        y += lh;
    }

    // The entries memory has held whole, so that "never in memory" can be
    // checked against the picture.
    QStringList written { entryName(script.written.empty() ? 0 : script.written.front()) };
    for (int i = 0; i <= step; ++i) {
        const PteStep& w = script.steps[std::size_t(i)];
        if (w.who == PteActor::Writer && (w.op == PteOp::WriteLow || w.op == PteOp::Store64))
            written << entryName(make_pte(w.pte_low, w.pte_high));
    }
    text(QRectF(r.left(), y, r.width(), lh), tr("Entries written so far: %1").arg(written.join(QStringLiteral(", "))),
        dim, Qt::AlignLeft | Qt::AlignVCenter, Size::Body, QStringLiteral("written"));
    return y + lh;
}

double TornPteLayout::registersPanel(const PteScript& script, int step, const QRectF& r)
{
    const PteStep& s = script.steps[std::size_t(step)];
    const PteReaderRegs& regs = s.reader;
    const QColor textColor = pal_.color(QPalette::WindowText);
    const QColor reader = actorColor(PteActor::Reader, pal_);
    const double capH = lineHeight(Size::Body, true);
    text(QRectF(r.left(), r.top(), r.width(), capH), tr("In the reader's registers: what it has read"), reader,
        Qt::AlignLeft | Qt::AlignVCenter, Size::Body, QStringLiteral("registers-caption"), true);

    const double gap = 10 * s_;
    const double bw = (r.width() - gap) / 2;
    const double bh = lineHeight(Size::Caption) + lineHeight(Size::Letter, true) + lineHeight(Size::Body) + 14 * s_;
    const double top = r.top() + capH + 6 * s_;
    const bool justRead = s.who == PteActor::Reader;
    const bool lowJust = justRead && (s.op == PteOp::LoadLow || s.op == PteOp::Load64) && !regs.low_again;
    const bool highJust = justRead && (s.op == PteOp::LoadHigh || s.op == PteOp::Load64);
    half(QRectF(r.left(), top, bw, bh), QStringLiteral("reglow-box"), tr("pte_low it read"),
        regs.low ? lowName(*regs.low) : QString(), regs.low ? hex32(*regs.low) : QString(),
        lowJust ? reader : QColor());
    half(QRectF(r.left() + bw + gap, top, bw, bh), QStringLiteral("reghigh-box"), tr("pte_high it read"),
        regs.high ? highName(*regs.high) : QString(), regs.high ? hex32(*regs.high) : QString(),
        highJust ? reader : QColor());

    double y = top + bh + 6 * s_;
    const double lh = lineHeight(Size::Body);
    QStringList lines;
    if (regs.low && regs.high)
        lines << tr("Together: %1").arg(entryName(make_pte(*regs.low, *regs.high)));
    if (regs.low_again)
        lines << tr("pte_low read again: %1").arg(lowName(*regs.low_again));
    const bool hints = script.method == PteReadMethod::RecheckUnderLock || script.method == PteReadMethod::PteSame;
    if (hints && regs.hint && (regs.holds_lock || regs.locked))
        lines << tr("Read without the lock: %1").arg(entryName(*regs.hint));
    if (hints && regs.locked)
        lines << tr("Read under the lock: %1").arg(entryName(*regs.locked));
    if (regs.seq)
        lines << tr("Sequence when its read began: %1").arg(*regs.seq);
    if (regs.retries)
        lines << (script.method == PteReadMethod::RecheckUnderLock ? tr("Backed out so far: %1")
                                                                   : tr("Retries so far: %1"))
                     .arg(regs.retries);
    // Two lines side by side when there are more than fit under the boxes
    // in the height memory's panel takes.
    const int rows = script.method == PteReadMethod::Seqcount ? 3 : 2;
    const int cols = int(lines.size()) > rows ? 2 : 1;
    const double cw = (r.width() - (cols - 1) * gap) / cols;
    for (int i = 0; i < int(lines.size()); ++i) {
        const int row = cols == 1 ? i : i / 2, col = cols == 1 ? 0 : i % 2;
        text(QRectF(r.left() + col * (cw + gap), y + row * lh, cw, lh), lines[i], textColor,
            Qt::AlignLeft | Qt::AlignVCenter, Size::Body, QStringLiteral("register"))
            .index
            = i;
    }
    const int used = cols == 1 ? int(lines.size()) : (int(lines.size()) + 1) / 2;
    return y + used * lh;
}

double TornPteLayout::sentenceBand(const PteScript& script, int step, const QRectF& r)
{
    const PteStep& s = script.steps[std::size_t(step)];
    const QColor accent = actorColor(s.who, pal_);
    const double pad = 10 * s_;
    const double bar = 5 * s_;
    const QString t = sentence(s);
    const double th = std::max(lineHeight(Size::Sentence), textHeight(t, r.width() - bar - 2 * pad, Size::Sentence));
    const QRectF band(r.left(), r.top(), r.width(), th + 2 * pad * 0.7);
    fill(band, colors::mix(pal_.color(QPalette::Window), accent, 0.14), QStringLiteral("sentence-band"));
    fill(QRectF(band.left(), band.top(), bar, band.height()), accent, QStringLiteral("sentence-band"));
    text(QRectF(band.left() + bar + pad, band.top() + pad * 0.7, band.width() - bar - 2 * pad, th), t,
        pal_.color(QPalette::WindowText), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, Size::Sentence,
        QStringLiteral("sentence"));
    return band.bottom();
}

double TornPteLayout::resultBand(const PteScript& script, const QRectF& r)
{
    const QColor c = verdictColor(script.torn, pal_);
    const double pad = 10 * s_;
    const double bar = 5 * s_;
    const QString entry = entryName(script.result);
    const QFont big = font(Size::Result, true);
    const double entryW = QFontMetricsF(big).horizontalAdvance(entry) + 2 * pad;
    const double textX = r.left() + bar + pad + entryW + pad;
    const double textW = r.right() - pad - textX;
    const QString line1 = resultText(script);
    QStringList held;
    for (const pteval_t v : script.written)
        held << entryName(v);
    QString line2 = (script.torn ? tr("Memory held %1, never %2. ").arg(held.join(QStringLiteral(", ")), entry)
                                 : tr("Memory held %1. ").arg(held.join(QStringLiteral(", "))))
        + retriesText(script);
    line2 = line2.trimmed();
    const double h1 = textHeight(line1, textW, Size::Sentence, true);
    const double h2 = textHeight(line2, textW, Size::Body);
    const double th = std::max(lineHeight(Size::Result, true), h1 + h2 + 2 * s_);
    const QRectF band(r.left(), r.top(), r.width(), th + 2 * pad * 0.6);
    fill(band, colors::mix(pal_.color(QPalette::Window), c, colors::isDark(pal_) ? 0.2 : 0.12),
        QStringLiteral("result-band"));
    fill(QRectF(band.left(), band.top(), bar, band.height()), c, QStringLiteral("result-band"));
    text(QRectF(band.left() + bar + pad, band.top(), entryW, band.height()), entry, c, Qt::AlignCenter, Size::Result,
        QStringLiteral("result-entry"), true);
    const double ty = band.top() + (band.height() - h1 - h2 - 2 * s_) / 2;
    text(QRectF(textX, ty, textW, h1), line1, c, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, Size::Sentence,
        QStringLiteral("result"), true);
    text(QRectF(textX, ty + h1 + 2 * s_, textW, h2), line2, pal_.color(QPalette::WindowText),
        Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, Size::Body, QStringLiteral("result-detail"));
    return band.bottom();
}

void TornPteLayout::lanes(const PteScript& script, int step, const QRectF& r)
{
    const QColor window = pal_.color(QPalette::Window);
    const QColor textColor = pal_.color(QPalette::WindowText);
    const QColor done = colors::mix(window, textColor, 0.45);
    const QColor rule = colors::mix(window, textColor, 0.25);
    const QFontMetricsF capFm(font(Size::Caption));
    const double numW = capFm.horizontalAdvance(QStringLiteral("000")) + 8 * s_;
    const int n = int(script.steps.size());
    // Each lane as wide as its longest row asks, within limits: the
    // reader's rows under a lock are long where the writer's are short.
    const QFontMetricsF laneFm(font(Size::Lane, true));
    double widest[2] = { 1, 1 };
    for (int i = 0; i < n; ++i) {
        double& w = widest[script.steps[std::size_t(i)].who == PteActor::Reader ? 0 : 1];
        w = std::max(w, laneFm.horizontalAdvance(laneText(script, i)));
    }
    const double lanesW = r.width() - numW;
    const double readerW = lanesW * std::clamp(widest[0] / (widest[0] + widest[1]), 0.4, 0.6);
    const double readerX = r.left() + numW, writerX = readerX + readerW;
    const double widthOf[2] = { readerW, lanesW - readerW };
    const double headH = lineHeight(Size::Lane, true) * 1.25;
    // Rows spread out when a short script leaves room, up to half a line
    // more between them; a long one scrolls at the tightest spacing.
    const double tight = lineHeight(Size::Lane) * 1.3;
    const double rowH = std::clamp((r.height() - headH - 2 * s_) / std::max(1, n), tight, tight * 1.35);
    const double pad = 8 * s_;

    const QString readerHead = tr("Reader: the fault handler");
    text(QRectF(readerX + pad, r.top(), widthOf[0] - 2 * pad, headH), readerHead, actorColor(PteActor::Reader, pal_),
        Qt::AlignLeft | Qt::AlignVCenter, Size::Lane, QStringLiteral("reader-lane"), true);
    const QString writerHead = tr("Writer: updates the entry");
    text(QRectF(writerX + pad, r.top(), widthOf[1] - 2 * pad, headH), writerHead, actorColor(PteActor::Writer, pal_),
        Qt::AlignLeft | Qt::AlignVCenter, Size::Lane, QStringLiteral("writer-lane"), true);
    line(QPointF(r.left(), r.top() + headH), QPointF(r.right(), r.top() + headH), rule, 1.5 * s_,
        QStringLiteral("lane-rule"));

    const int visible = std::max(1, int((r.height() - headH) / rowH));
    // Centre the current row when the script is longer than the lanes, so
    // what just happened and what comes next are both in view.
    firstRow_ = n <= visible ? 0 : std::clamp(step - visible / 2, 0, n - visible);
    lastRow_ = std::min(n, firstRow_ + visible) - 1;
    const QString range = tr("steps %1\u2013%2 of %3").arg(firstRow_ + 1).arg(lastRow_ + 1).arg(n);
    const double headW[2] = { laneFm.horizontalAdvance(readerHead), laneFm.horizontalAdvance(writerHead) };
    const double rangeW = QFontMetricsF(font(Size::Caption)).horizontalAdvance(range);
    // Where some rows are scrolled off, say which are in view, beside the
    // heading of the lane that has room for it.
    for (const int lane : { 1, 0 }) {
        if (n <= visible || headW[lane] + rangeW + 4 * pad >= widthOf[lane])
            continue;
        text(QRectF(lane == 0 ? readerX : writerX, r.top(), widthOf[lane] - pad, headH), range, done,
            Qt::AlignRight | Qt::AlignVCenter, Size::Caption, QStringLiteral("lane-range"));
        break;
    }
    const double rowsTop = r.top() + headH + 2 * s_;
    line(QPointF(writerX, r.top()), QPointF(writerX, rowsTop + (lastRow_ - firstRow_ + 1) * rowH), rule, 1.5 * s_,
        QStringLiteral("lane-rule"));

    for (int i = firstRow_; i <= lastRow_; ++i) {
        const PteStep& s = script.steps[std::size_t(i)];
        const double y = rowsTop + (i - firstRow_) * rowH;
        const bool current = i == step;
        const QColor accent = actorColor(s.who, pal_);
        const double x = s.who == PteActor::Reader ? readerX : writerX;
        if (current) {
            fill(
                QRectF(r.left(), y, r.width(), rowH), colors::mix(window, accent, 0.22), QStringLiteral("current-row"));
            fill(QRectF(x, y, 4 * s_, rowH), accent, QStringLiteral("current-row"));
        }
        const QColor c = current ? textColor : i < step ? done : textColor;
        text(QRectF(r.left(), y, numW - 6 * s_, rowH), QString::number(i + 1), current ? textColor : done,
            Qt::AlignRight | Qt::AlignVCenter, Size::Caption, QStringLiteral("row-number"))
            .index
            = i;
        const QString role = s.who == PteActor::Reader ? QStringLiteral("reader-op") : QStringLiteral("writer-op");
        const double colW = widthOf[s.who == PteActor::Reader ? 0 : 1];
        text(QRectF(x + pad + 2 * s_, y, colW - 2 * pad - 2 * s_, rowH), laneText(script, i), c,
            Qt::AlignLeft | Qt::AlignVCenter, Size::Lane, role, current)
            .index
            = i;
    }
}

} // namespace pcl::ui
