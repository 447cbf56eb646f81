#include "shell/welcomepage.h"

#include "kit/colormix.h"
#include "shell/appicon.h"
#include "shell/welcomecard.h"
#include "workload/trace_replay.h"

#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

/// A lesson's citation up to the ": " that leads into who replied, not one
/// inside the quoted subject ("[PATCH] mm: use a radix-tree ...").
std::string citationHead(const std::string& citation)
{
    bool quoted = false;
    for (std::size_t i = 0; i + 1 < citation.size(); ++i) {
        if (citation[i] == '"')
            quoted = !quoted;
        else if (!quoted && citation[i] == ':' && citation[i + 1] == ' ')
            return citation.substr(0, i);
    }
    return citation;
}

constexpr int kIconSize = 72;
constexpr int kMaxContentWidth = 1120;

QLabel* scaledLabel(const QString& text, qreal scale, bool bold)
{
    auto* label = new QLabel(text);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(bold);
    label->setFont(font);
    return label;
}

// The card's picture, from what the scenario exercises.
WelcomeCard::Glyph glyphFor(const Scenario& s)
{
    if (s.engine.workload.pattern == WorkloadPattern::Pft)
        return WelcomeCard::Glyph::Fault;
    if (s.engine.migrate_every > 0)
        return WelcomeCard::Glyph::Timeline;
    if (s.engine.index.kind == IndexKind::Hash)
        return WelcomeCard::Glyph::Lock;
    return WelcomeCard::Glyph::Tree;
}

/// "about 40 seconds", "about 3 minutes": a length rounded as a person says it.
QString roughly(double seconds)
{
    if (seconds < 1.5)
        return WelcomePage::tr("about a second");
    if (seconds < 10)
        return WelcomePage::tr("about %1 seconds").arg(std::lround(seconds));
    if (seconds < 90)
        return WelcomePage::tr("about %1 seconds").arg(std::lround(seconds / 5) * 5);
    if (seconds < 150)
        return WelcomePage::tr("about 2 minutes");
    return WelcomePage::tr("about %1 minutes").arg(std::lround(seconds / 60));
}

/// The operations a replayed thread does: one per read or write, one per
/// page a touch of a mapping covers (as TraceReplay turns them).
std::uint64_t replayedOperations(const TracePlan& plan, unsigned thread)
{
    std::uint64_t ops = 0;
    for (const std::uint32_t i : plan.events_of(thread)) {
        const TraceEvent& e = plan.trace().events[i];
        if (e.length == 0)
            continue;
        if (e.op == TraceOp::Read || e.op == TraceOp::Write)
            ++ops;
        else if (e.op == TraceOp::MmapTouch)
            ops += (e.offset + e.length - 1) / kTracePageBytes + 1 - e.offset / kTracePageBytes;
    }
    return ops;
}

/// How long @s runs at its own pacing, and how to follow it. A paced run's
/// length is its longest sequence over its pace; an unpaced one goes as
/// fast as the machine does, which the card cannot know, but the bundled
/// ones are over in seconds.
QString runLength(const Scenario& s)
{
    if (s.duration_seconds > 0)
        return WelcomePage::tr("Runs for %1.").arg(roughly(s.duration_seconds));
    const double pace = s.engine.ops_per_second;
    if (pace <= 0)
        return WelcomePage::tr("Runs at full speed and is over in seconds: move the speed slider to the left "
                               "to watch each CPU at a pace you can follow.");
    std::uint64_t ops = s.engine.workload.operations_per_cpu;
    if (s.engine.trace) {
        ops = 0;
        for (unsigned t = 0; t < s.engine.trace->threads(); ++t)
            ops = std::max(ops, replayedOperations(*s.engine.trace, t));
    }
    return WelcomePage::tr("Runs for %1 at %2 operations a second per CPU, slow enough to follow each one.")
        .arg(roughly(double(ops) / pace))
        .arg(pace);
}

/// One sentence on what a thread was about, for the head of its lessons;
/// empty for a thread not listed here (the citation stands alone).
QString threadSentence(const std::string& thread)
{
    static const std::pair<const char*, const char*> kSentences[] = {
        { "radix-tree pagecache (2002)",
            QT_TRANSLATE_NOOP("WelcomePage",
                "Linux 2.4 found every cached page through one hash table under one global lock; the thread "
                "argued whether a radix tree per file, under its own lock, should replace it.") },
        { "multipage I/O and readahead (2002)",
            QT_TRANSLATE_NOOP("WelcomePage",
                "Andrew Morton rebuilt readahead for 2.5 to read in large requests, and measured what happens "
                "when read-ahead pages are evicted before anyone reads them.") },
        { "pagefault scalability (2005)",
            QT_TRANSLATE_NOOP("WelcomePage",
                "One lock per process guarded every page-table change; the thread split it into a lock per "
                "page-table page and argued from how many CPUs that pays.") },
        { "concurrent pagecache (2007)",
            QT_TRANSLATE_NOOP("WelcomePage",
                "Peter Zijlstra let several CPUs change one file's radix tree at once, each locking only the "
                "nodes it changes.") },
        { "linear do_move_pages (2008)",
            QT_TRANSLATE_NOOP("WelcomePage",
                "Moving a buffer's pages between NUMA nodes searched a list once per page; a radix tree made the "
                "work grow linearly with the buffer.") },
    };
    for (const auto& [name, sentence] : kSentences)
        if (thread == name)
            return WelcomePage::tr(sentence);
    return {};
}

QColor accentFor(WelcomeCard::Glyph glyph)
{
    switch (glyph) {
    case WelcomeCard::Glyph::Fault:
        return QColor(0xc8, 0x4a, 0x64);
    case WelcomeCard::Glyph::Timeline:
        return QColor(0x85, 0x52, 0xc0);
    case WelcomeCard::Glyph::Lock:
        return QColor(0x4f, 0x5b, 0xc4);
    default:
        return QColor(0x2f, 0x6f, 0xb5);
    }
}

} // namespace

WelcomePage::WelcomePage(const QList<ScenarioEntry>& presets, QWidget* parent)
    : QWidget(parent)
    , tagline_(
          scaledLabel(tr("A Linux page cache, simulated on real threads, that you can watch at work."), 1.3, false))
    , intro_(new QLabel(tr("Each simulated CPU is a real thread, so locks really contend and faults really wait. "
                           "Pick an experiment from the threads where linux-mm and LKML argued about it, press "
                           "Run, and watch which lock bounces, where a fault waits and which index scales.")))
    , sectionTitle_(scaledLabel(tr("EXPERIMENTS"), 0.9, true))
    , recentTitle_(scaledLabel(tr("RECENT FILES"), 0.9, true))
    , recent_(new QWidget)
    , recentList_(new QVBoxLayout)
    , grid_(new QGridLayout)
    , lessons_(new QVBoxLayout)
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
    tagline_->setWordWrap(true);
    QFont introFont = intro_->font();
    introFont.setPointSizeF(introFont.pointSizeF() * 1.08);
    intro_->setFont(introFont);

    for (QLabel* section : { sectionTitle_, recentTitle_ }) {
        QFont f = section->font();
        f.setLetterSpacing(QFont::AbsoluteSpacing, 1.2);
        section->setFont(f);
    }

    grid_->setHorizontalSpacing(14);
    grid_->setVerticalSpacing(14);
    for (const ScenarioEntry& entry : presets) {
        const Scenario& s = entry.scenario;
        const WelcomeCard::Glyph glyph = glyphFor(s);
        QString source = s.year ? QString::number(s.year) : QString();
        if (!s.source.empty())
            source += (source.isEmpty() ? QString() : QStringLiteral(" · ")) + QString::fromStdString(s.source);
        auto* card = new WelcomeCard(glyph, accentFor(glyph),
            QString::fromStdString(s.title.empty() ? entry.id.toStdString() : s.title),
            QString::fromStdString(s.description), source);
        card->setObjectName(entry.id);
        card->setNote(runLength(s));
        QPushButton* run = card->addButton(tr("Run"));
        run->setObjectName(QStringLiteral("run"));
        run->setToolTip(tr("Open this experiment, ready to play"));
        connect(run, &QPushButton::clicked, this, [this, id = entry.id] { Q_EMIT runRequested(id); });
        cards_.append(card);
    }
    arrangeCards(2);

    auto* open = new QPushButton(tr("Open a scenario file…"));
    open->setObjectName(QStringLiteral("openScenario"));
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    auto* openRow = new QHBoxLayout;
    openRow->addWidget(open);
    openRow->addStretch(1);

    recentList_->setSpacing(2);
    recentList_->setContentsMargins(0, 0, 0, 0);
    auto* recentLayout = new QVBoxLayout(recent_);
    recentLayout->setContentsMargins(0, 0, 0, 0);
    recentLayout->setSpacing(8);
    recentLayout->addWidget(recentTitle_);
    recentLayout->addLayout(recentList_);
    recent_->hide();

    auto* content = new QVBoxLayout;
    content->setSpacing(0);
    content->addLayout(header);
    content->addSpacing(14);
    content->addWidget(intro_);
    content->addSpacing(18);
    // What was opened last, and a file of one's own, above the gallery: the
    // gallery is screens long, and a returning user comes back for these.
    content->addWidget(recent_);
    content->addSpacing(12);
    content->addLayout(openRow);
    content->addSpacing(18);
    content->addLayout(lessons_);
    content->addWidget(sectionTitle_);
    content->addSpacing(8);
    content->addLayout(grid_);

    auto* column = new QWidget;
    column->setMaximumWidth(kMaxContentWidth);
    column->setLayout(content);

    auto* centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(column, 100);
    centred->addStretch(1);

    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(40, 18, 40, 16);
    outer->addLayout(centred);
    outer->addStretch(1);

    applyPalette();
}

void WelcomePage::setLessons(const std::vector<Lesson>& lessons)
{
    while (QLayoutItem* item = lessons_->takeAt(0)) {
        if (item->layout())
            while (QLayoutItem* inner = item->layout()->takeAt(0)) {
                delete inner->widget();
                delete inner;
            }
        delete item->widget();
        delete item;
    }
    lessonCards_.clear();
    if (lessons.empty())
        return;
    auto* heading = scaledLabel(tr("LESSONS"), 0.9, true);
    QFont f = heading->font();
    f.setLetterSpacing(QFont::AbsoluteSpacing, 1.2);
    heading->setFont(f);
    lessons_->addWidget(heading);
    lessons_->addSpacing(8);
    // One group per thread, in the order the threads first come (the names
    // start with the year), headed by the thread and its subject and list:
    // the citation up to its first colon.
    std::vector<const Lesson*> ordered;
    for (const Lesson& l : lessons)
        if (std::none_of(ordered.begin(), ordered.end(), [&](const Lesson* o) { return o->thread == l.thread; }))
            for (const Lesson& same : lessons)
                if (same.thread == l.thread)
                    ordered.push_back(&same);
    QGridLayout* grid = nullptr;
    std::string thread;
    int n = 0;
    for (const Lesson* lesson : ordered) {
        const Lesson& l = *lesson;
        if (!grid || l.thread != thread) {
            thread = l.thread;
            const std::string subject = citationHead(l.citation);
            QString head = QStringLiteral("<b>%1</b> · %2")
                               .arg(QString::fromStdString(l.thread).toHtmlEscaped(),
                                   QString::fromStdString(subject).toHtmlEscaped());
            if (const QString sentence = threadSentence(l.thread); !sentence.isEmpty())
                head += QStringLiteral("<br>") + sentence.toHtmlEscaped();
            auto* cite = new QLabel(head);
            cite->setObjectName(QStringLiteral("threadHead"));
            cite->setWordWrap(true);
            lessons_->addSpacing(grid ? 12 : 0);
            lessons_->addWidget(cite);
            lessons_->addSpacing(6);
            grid = new QGridLayout;
            grid->setHorizontalSpacing(14);
            grid->setVerticalSpacing(14);
            grid->setColumnStretch(0, 1);
            grid->setColumnStretch(1, 1);
            lessons_->addLayout(grid);
            n = 0;
        }
        // The picture, from the thread's subject.
        const auto starts = [&](const char* word) { return l.thread.rfind(word, 0) == 0; };
        const WelcomeCard::Glyph glyph = starts("multipage") ? WelcomeCard::Glyph::Readahead
            : starts("pagefault")                            ? WelcomeCard::Glyph::Fault
            : starts("concurrent")                           ? WelcomeCard::Glyph::Tree
            : starts("radix-tree")                           ? WelcomeCard::Glyph::Lock
                                                             : WelcomeCard::Glyph::Chart;
        const QString text = QString::fromStdString(l.summary) + QLatin1Char(' ')
            + (l.steps.size() == 1 ? tr("One guided step") : tr("%1 guided steps").arg(l.steps.size()))
            + tr(", then the claims measured on this machine (seconds in the quick form).");
        auto* card = new WelcomeCard(glyph, accentFor(glyph), QString::fromStdString(l.title), text,
            l.claims.size() == 1 ? tr("1 claim from the thread")
                                 : tr("%1 claims from the thread").arg(l.claims.size()));
        card->setObjectName(QString::fromStdString(l.name));
        QPushButton* start = card->addButton(tr("Start lesson"));
        start->setObjectName(QStringLiteral("start"));
        start->setToolTip(tr("Open this lesson at its first step"));
        connect(start, &QPushButton::clicked, this,
            [this, name = QString::fromStdString(l.name)] { Q_EMIT lessonRequested(name); });
        grid->addWidget(card, n / 2, n % 2);
        ++n;
        lessonCards_.append(card);
    }
    lessons_->addSpacing(18);
}

void WelcomePage::arrangeCards(int columns)
{
    if (columns == columns_)
        return;
    columns_ = columns;
    for (WelcomeCard* card : cards_)
        grid_->removeWidget(card);
    for (int i = 0; i < cards_.size(); ++i)
        grid_->addWidget(cards_[i], i / columns, i % columns);
    for (int c = 0; c < 2; ++c)
        grid_->setColumnStretch(c, c < columns ? 1 : 0);
}

void WelcomePage::setRecentFiles(const QStringList& paths)
{
    while (QLayoutItem* item = recentList_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const QString& path : paths) {
        auto* button = new QPushButton(QFileInfo(path).fileName() + QStringLiteral("  —  ") + path);
        button->setFlat(true);
        button->setToolTip(tr("Open %1").arg(path));
        button->setStyleSheet(QStringLiteral("text-align: left; padding: 2px 4px;"));
        connect(button, &QPushButton::clicked, this, [this, path] { Q_EMIT runRequested(path); });
        recentList_->addWidget(button);
    }
    recent_->setVisible(!paths.isEmpty());
}

void WelcomePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
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
    colour(tagline_, colors::mix(text, background, 0.3));
    colour(intro_, colors::mix(text, background, 0.15));
    colour(sectionTitle_, colors::mix(text, background, 0.45));
    colour(recentTitle_, colors::mix(text, background, 0.45));
}

} // namespace pcl::ui
