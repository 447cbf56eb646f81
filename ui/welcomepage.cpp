#include "welcomepage.h"

#include "appicon.h"
#include "welcomecard.h"

#include <QEvent>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace pcl::ui {

namespace {

constexpr int kIconSize = 72;
constexpr int kMaxContentWidth = 1120;

QColor blend(const QColor& a, const QColor& b, qreal t)
{
    return QColor::fromRgbF(
        a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t, a.blueF() * (1 - t) + b.blueF() * t);
}

QLabel* scaledLabel(const QString& text, qreal scale, bool bold)
{
    auto* label = new QLabel(text);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(bold);
    label->setFont(font);
    return label;
}

struct CardText {
    WelcomeCard::Glyph glyph;
    QColor accent;
    const char* title;
    const char* text;
    const char* source;
};

// What the product shows, one card per view of DESIGN.md, each citing the
// seed thread (reference/seeds/) the view is built to illustrate.
const CardText kCards[] = {
    { WelcomeCard::Glyph::Tree, QColor(0x2f, 0x6f, 0xb5), QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Page indexes"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "A radix tree per file, the global page hash of 2.4 or a skip list, each under the locking schemes "
            "Linux tried. Nodes appear as pages arrive; tags climb to the root."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "LKML 2002 and 2007 (seeds 000, 003)") },
    { WelcomeCard::Glyph::Lock, QColor(0x4f, 0x5b, 0xc4), QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Locks"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "Every lock coloured as it runs: green held, yellow held and wanted, red blocked. Beside it, "
            "lockstat's table: contentions, wait and hold times, bounces."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "LKML 2002: pagecache_lock (seed 000)") },
    { WelcomeCard::Glyph::Fault, QColor(0xc8, 0x4a, 0x64), QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Page faults"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "Faults that miss the cache, CPUs racing to insert the same page, faults queueing on a page under "
            "I/O; one page-table lock against split locks."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "linux-mm 2005: fault scalability (seed 002)") },
    { WelcomeCard::Glyph::Readahead, QColor(0x15, 0x93, 0x84), QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Readahead"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "The window opening ahead of a sequential reader and growing with each hit, then shrinking when "
            "memory thrashes and read-ahead pages go unused."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "LKML 2002: unified readahead (seed 001)") },
    { WelcomeCard::Glyph::Timeline, QColor(0x85, 0x52, 0xc0), QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "CPU timeline"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "What each simulated CPU, a real thread, does and when: running, spinning on a lock, sleeping on a "
            "page lock, waiting for the disk."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Exports Chrome trace JSON for Perfetto") },
    { WelcomeCard::Glyph::Chart, QColor(0xc9, 0x6f, 0x1c),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Charts and reports"),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage",
            "Throughput and scaling charts, with the numbers the seed threads reported beside ours. Charts to "
            "PNG, SVG and PDF; tables to CSV; runs to JSON."),
        QT_TRANSLATE_NOOP("pcl::ui::WelcomePage", "Headless too: pagecache-lab-cli") },
};

} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
    , tagline_(
          scaledLabel(tr("A Linux page cache, simulated on real threads, that you can watch at work."), 1.3, false))
    , intro_(new QLabel(tr("Each simulated CPU is a real thread, so locks really contend and faults really wait. "
                           "Page Cache Lab plays out what linux-mm and LKML argued about from 2002 to 2008: which "
                           "page index scales, which lock bounces between CPUs, where a fault waits, and how far "
                           "ahead readahead should read.")))
    , sectionTitle_(scaledLabel(tr("WHAT YOU WILL SEE"), 0.9, true))
    , available_(new QLabel(tr("<b>Available now:</b> the three page indexes under every locking scheme, with lock "
                               "statistics, in <code>pagecache-lab-cli bench indexes|seed003|locks</code>.")))
{
    setObjectName(QStringLiteral("welcomePage"));
    setAutoFillBackground(true);

    auto* icon = new QLabel;
    icon->setPixmap(applicationIconPixmap(QSize(kIconSize, kIconSize), qGuiApp->devicePixelRatio()));
    icon->setFixedSize(kIconSize, kIconSize);

    auto* title = scaledLabel(tr("Page Cache Lab"), 2.2, true);
    title->setObjectName(QStringLiteral("welcomeTitle"));

    auto* titles = new QVBoxLayout;
    titles->setSpacing(2);
    titles->addStretch();
    titles->addWidget(title);
    titles->addWidget(tagline_);
    titles->addStretch();

    auto* header = new QHBoxLayout;
    header->setSpacing(20);
    header->addWidget(icon);
    header->addLayout(titles, 1);

    intro_->setWordWrap(true);
    QFont introFont = intro_->font();
    introFont.setPointSizeF(introFont.pointSizeF() * 1.08);
    intro_->setFont(introFont);

    QFont sectionFont = sectionTitle_->font();
    sectionFont.setLetterSpacing(QFont::AbsoluteSpacing, 1.2);
    sectionTitle_->setFont(sectionFont);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(14);
    grid->setVerticalSpacing(14);
    int i = 0;
    for (const CardText& c : kCards) {
        auto* card = new WelcomeCard(c.glyph, c.accent, tr(c.title), tr(c.text), tr(c.source));
        cards_.append(card);
        grid->addWidget(card, i / 3, i % 3);
        ++i;
    }
    for (int column = 0; column < 3; ++column)
        grid->setColumnStretch(column, 1);

    available_->setObjectName(QStringLiteral("availableNow"));
    available_->setWordWrap(true);
    available_->setTextFormat(Qt::RichText);
    available_->setContentsMargins(16, 10, 16, 10);

    auto* content = new QVBoxLayout;
    content->setSpacing(0);
    content->addLayout(header);
    content->addSpacing(14);
    content->addWidget(intro_);
    content->addSpacing(18);
    content->addWidget(sectionTitle_);
    content->addSpacing(8);
    content->addLayout(grid);
    content->addSpacing(14);
    content->addWidget(available_);

    auto* column = new QWidget;
    column->setMaximumWidth(kMaxContentWidth);
    column->setLayout(content);

    auto* centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(column, 100);
    centred->addStretch(1);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(40, 18, 40, 16);
    outer->addStretch(1);
    outer->addLayout(centred);
    outer->addStretch(1);

    applyPalette();
}

void WelcomePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) applyPalette();
    QWidget::changeEvent(event);
}

void WelcomePage::applyPalette()
{
    const QPalette base = palette();
    const QColor text = base.color(QPalette::Text);
    const QColor background = base.color(QPalette::Window);
    auto colour = [](QLabel* label, const QColor& c) {
        QPalette p = label->palette();
        p.setColor(QPalette::WindowText, c);
        label->setPalette(p);
    };
    colour(tagline_, blend(text, background, 0.3));
    colour(intro_, blend(text, background, 0.15));
    colour(sectionTitle_, blend(text, background, 0.45));
    colour(available_, blend(text, background, 0.15));
}

void WelcomePage::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);

    // A quiet box behind "Available now", in the tree card's blue.
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF box
        = QRectF(QRect(available_->mapTo(this, QPoint(0, 0)), available_->size())).adjusted(0.5, 0.5, -0.5, -0.5);
    QColor fill(0x2f, 0x6f, 0xb5);
    fill.setAlphaF(0.08);
    QColor border(0x2f, 0x6f, 0xb5);
    border.setAlphaF(0.35);
    painter.setPen(QPen(border, 1));
    painter.setBrush(fill);
    painter.drawRoundedRect(box, 8, 8);
}

} // namespace pcl::ui
