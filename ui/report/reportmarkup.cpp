#include "report/reportmarkup.h"

#include "kit/numberformat.h"
#include "lesson/experiment.h"
#include "lesson/figure_text.h"
#include "lesson/lesson.h"
#include "lesson/modelled_claims.h"
#include "lib/json_path.h"
#include "lib/provenance.h"
#include "lib/report.h"
#include "sched/machine_profiles.h"
#include "sim/run_figures.h"
#include "sim/run_result.h"
#include "sim/run_summary.h"
#include "sim/scenario_fields.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::RunReport", text);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// A time in microseconds, to the precision a reader can use: "0.42",
/// "37.5", "1,204".
QString micros(double ns)
{
    const double us = ns / 1e3;
    if (us >= 1000)
        return groupedNumber(std::uint64_t(us + 0.5));
    return QString::number(us, 'f', us >= 100 ? 1 : 2);
}

QString percent(double share)
{
    return QString::number(100 * share, 'f', share >= 0.1 ? 1 : 2) + QStringLiteral(" %");
}

/// The browser's stylesheet: a page for the screen and for a browser's
/// print, charts as wide as the text. No quotes: a browser reads the page
/// as HTML, where the style's text is not unescaped.
constexpr const char* kHtmlStyle = R"(
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; color: #202020; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; margin-top: 1.6em; border-bottom: 1px solid #c8c8c8; }
h3 { font-size: 1.1em; margin-top: 1.2em; }
p.source, p.note, p.footer { color: #555555; }
p.footer { font-size: 0.85em; margin-top: 3em; }
table { border-collapse: collapse; margin: 0.6em 0 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #c8c8c8; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #eef1f5; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { white-space: nowrap; }
td.held { background: #dff3e3; white-space: nowrap; }
td.did-not-hold { background: #f9dcdc; white-space: nowrap; }
td.inconclusive { background: #e8e8e8; white-space: nowrap; }
code { font-size: 0.9em; }
figure { margin: 1.2em 0; page-break-inside: avoid; break-inside: avoid; }
figure svg { width: 100%; height: auto; display: block; }
tr { page-break-inside: avoid; break-inside: avoid; }
)";

/// Qt's rich text for the PDF: the subset of CSS it reads.
constexpr const char* kPdfStyle = R"(
body { font-family: DejaVu Sans; font-size: 9pt; color: #202020; }
h1 { font-size: 17pt; }
h2 { font-size: 13pt; margin-top: 14px; }
h3 { font-size: 10.5pt; margin-top: 10px; }
p.source, p.note, p.footer { color: #555555; }
p.footer { font-size: 7.5pt; }
table { border-color: #c8c8c8; border-style: solid; margin-top: 4px; margin-bottom: 8px; }
th { background-color: #eef1f5; font-size: 7.5pt; text-align: left; white-space: nowrap; }
td { font-size: 7.5pt; }
td.n { text-align: right; white-space: nowrap; }
td.name { white-space: nowrap; }
td.held { background-color: #dff3e3; white-space: nowrap; }
td.did-not-hold { background-color: #f9dcdc; white-space: nowrap; }
td.inconclusive { background-color: #e8e8e8; white-space: nowrap; }
)";

class Markup {
public:
    Markup(const ReportSubject& subject, const std::vector<ReportChart>& charts, ReportMedium medium,
        const FigureWriter& figure, const std::set<TableRow>& breaks)
        : s_(subject)
        , charts_(charts)
        , medium_(medium)
        , figure_(figure)
        , breaks_(breaks)
        , xml_(&text_)
    {
    }

    /// Each <table> written, in order: the table it is part of and its first row.
    const std::vector<TableRow>& pieces() const { return pieces_; }

    QString write(QString* error);

private:
    void element(const char* name, const QString& text, const char* cls = nullptr)
    {
        xml_.writeStartElement(QLatin1String(name));
        if (cls)
            xml_.writeAttribute(QStringLiteral("class"), QLatin1String(cls));
        xml_.writeCharacters(text);
        xml_.writeEndElement();
    }
    /// A table headed by @headings, with the columns' shares of the width
    /// (percent) in @widths if given.
    void startTable(const QStringList& headings, const QList<int>& widths = {})
    {
        headings_ = headings;
        widths_ = widths;
        ++table_;
        row_ = 0;
        writeTableStart(breaks_.count({ table_, 0 }) > 0);
    }
    void writeTableStart(bool newPage)
    {
        xml_.writeStartElement(QStringLiteral("table"));
        // Attributes Qt's rich text reads; a browser's stylesheet overrides them.
        xml_.writeAttribute(QStringLiteral("border"), QStringLiteral("1"));
        xml_.writeAttribute(QStringLiteral("cellspacing"), QStringLiteral("0"));
        xml_.writeAttribute(QStringLiteral("cellpadding"), QStringLiteral("3"));
        if (newPage)
            xml_.writeAttribute(QStringLiteral("style"), QStringLiteral("page-break-before: always"));
        pieces_.push_back({ table_, row_ });
        // The heading row repeats on every page a long table spans.
        xml_.writeStartElement(QStringLiteral("thead"));
        xml_.writeStartElement(QStringLiteral("tr"));
        // A heading of two words may take two lines ("Wait\ntotal"), so the
        // numbers, not the headings, set the columns' widths.
        for (qsizetype column = 0; column < headings_.size(); ++column) {
            const QString& h = headings_[column];
            xml_.writeStartElement(QStringLiteral("th"));
            if (column < widths_.size())
                xml_.writeAttribute(QStringLiteral("width"), QString::number(widths_[column]) + QLatin1Char('%'));
            const QStringList lines = h.split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (i)
                    xml_.writeEmptyElement(QStringLiteral("br"));
                xml_.writeCharacters(lines[i]);
            }
            xml_.writeEndElement();
        }
        xml_.writeEndElement();
        xml_.writeEndElement();
        xml_.writeStartElement(QStringLiteral("tbody"));
    }
    void endTable()
    {
        xml_.writeEndElement(); // tbody
        xml_.writeEndElement(); // table
    }
    /// Starts a body row. A row the pages asked to keep whole starts a
    /// table of its own on the next page, its heading row repeated.
    void startRow()
    {
        if (row_ > 0 && breaks_.count({ table_, row_ })) {
            endTable();
            writeTableStart(true);
        }
        ++row_;
        xml_.writeStartElement(QStringLiteral("tr"));
    }
    /// One row; a cell starting with '#' is a number (right-aligned), one
    /// starting with '!' a name kept on one line, the mark dropped.
    void row(const QStringList& cells)
    {
        startRow();
        for (const QString& c : cells) {
            if (c.startsWith(QLatin1Char('#')))
                element("td", c.mid(1), "n");
            else if (c.startsWith(QLatin1Char('!')))
                element("td", c.mid(1), "name");
            else
                element("td", c);
        }
        xml_.writeEndElement();
    }
    static QString num(std::uint64_t v) { return QLatin1Char('#') + groupedNumber(v); }
    static QString num(const QString& v) { return QLatin1Char('#') + v; }

    void head();
    /// Who made the report, how, when and on what.
    QString footer() const;
    void introduction();
    void scenario();
    void lesson();
    void verdicts();
    void modelledVerdict(const ClaimResult& claim);
    void threadTable(const TableResult& table);
    void verdictCell(LessonVerdict verdict);
    void parameters();
    void counters();
    bool charts(QString* error);
    void locks();
    void lockTable(const std::vector<sync::LockStatRow>& rows, bool classes);
    /// A row per counter of @group (lib/counter_table.h): its label, value and meaning.
    template <class Stats>
    void counterRows(std::span<const Counter<Stats>> table, std::string_view group, const Stats& s)
    {
        for_each_counter(table, group, [&](const Counter<Stats>& c) {
            QString label = q(c.label);
            label[0] = label[0].toUpper();
            row({ label, num(s.*c.member), q(c.meaning) });
        });
    }
    void histograms();

    const ReportSubject& s_;
    const std::vector<ReportChart>& charts_;
    ReportMedium medium_;
    const FigureWriter& figure_;
    const std::set<TableRow>& breaks_;
    std::vector<TableRow> pieces_;
    QStringList headings_;
    QList<int> widths_;
    int table_ = -1; ///< the table being written, counted from 0
    int row_ = 0;    ///< its body rows so far
    QString text_;
    QXmlStreamWriter xml_;
};

QString Markup::write(QString* error)
{
    xml_.setAutoFormatting(true);
    xml_.setAutoFormattingIndent(1);
    xml_.writeStartDocument();
    xml_.writeDTD(QStringLiteral("<!DOCTYPE html>"));
    xml_.writeStartElement(QStringLiteral("html"));
    xml_.writeDefaultNamespace(QStringLiteral("http://www.w3.org/1999/xhtml"));
    xml_.writeAttribute(QStringLiteral("lang"), QStringLiteral("en"));
    head();
    xml_.writeStartElement(QStringLiteral("body"));
    introduction();
    if (s_.lesson)
        lesson();
    if (s_.verdicts)
        verdicts();
    if (s_.run) {
        // In a lesson's report the run comes after the lesson's argument.
        if (s_.lesson) {
            element("h2", tr("The run: %1").arg(scenarioTitle(s_.run->scenario)));
            scenario();
        }
        parameters();
        counters();
        if (!charts(error))
            return {};
        locks();
        histograms();
    }
    element("p", footer(), "footer");
    xml_.writeEndElement(); // body
    xml_.writeEndElement(); // html
    xml_.writeEndDocument();
    return text_;
}

QString Markup::footer() const
{
    // Which build, how and when, and on what: a report attached to a bug
    // or a paper says where its figures come from (lib/provenance.h).
    const Provenance made = s_.run ? s_.run->provenance : s_.verdicts ? s_.verdicts->provenance : make_provenance();
    QString text
        = tr("Made by Page Cache Lab %1%2 at %3 UTC%4.")
              .arg(QString::fromStdString(made.version),
                  made.commit.empty() ? QString() : tr(" (%1)").arg(QString::fromStdString(made.commit)),
                  QString::fromStdString(made.time)
                      .replace(QLatin1Char('T'), QLatin1Char(' '))
                      .remove(QLatin1Char('Z')),
                  made.command.empty() ? QString() : tr(", with %1").arg(QString::fromStdString(made.command)));
    const QString computer = QString::fromStdString(host_text(made.host));
    if (s_.run && s_.run->scenario.engine.machine.is_modelled()) {
        const std::string& name = s_.run->scenario.engine.machine.profile;
        std::string machine = name;
        try {
            machine = sched::load_machine_profile(name).title + " (" + name + ")";
        } catch (const std::exception&) {
            // A profile gone since the run: its name is what there is.
        }
        return text + QLatin1Char(' ')
            + tr("Every figure was measured on a modelled machine, %1, its time virtual, computed on %2.")
                  .arg(QString::fromStdString(machine), computer);
    }
    return text + QLatin1Char(' ')
        + tr("Every figure was measured on this computer (%1), in a simulated page cache running on its threads.")
              .arg(computer);
}

void Markup::head()
{
    xml_.writeStartElement(QStringLiteral("head"));
    xml_.writeEmptyElement(QStringLiteral("meta"));
    xml_.writeAttribute(QStringLiteral("charset"), QStringLiteral("utf-8"));
    element("title", reportTitle(s_));
    xml_.writeStartElement(QStringLiteral("style"));
    xml_.writeCharacters(QLatin1String(medium_ == ReportMedium::Html ? kHtmlStyle : kPdfStyle));
    xml_.writeEndElement();
    xml_.writeEndElement();
}

void Markup::introduction()
{
    element("h1", reportTitle(s_));
    if (!s_.lesson) {
        scenario();
        return;
    }
    const Lesson& l = *s_.lesson;
    element("p", tr("A lesson from the %1 thread.").arg(q(l.thread)), "source");
    if (!l.citation.empty())
        element("p", q(l.citation), "source");
    if (!l.question.empty())
        element("p", q(l.question));
}

void Markup::scenario()
{
    if (!s_.run)
        return;
    const Scenario& sc = s_.run->scenario;
    QString source = q(sc.source);
    if (sc.year && !source.contains(QString::number(sc.year)))
        source = source.isEmpty() ? QString::number(sc.year) : tr("%1, %2").arg(sc.year).arg(source);
    if (!source.isEmpty())
        element("p", tr("From %1.").arg(source), "source");
    if (!sc.description.empty())
        element("p", q(sc.description));
}

void Markup::lesson()
{
    const Lesson& l = *s_.lesson;
    if (!l.arguments.empty()) {
        element("h2", tr("Who argued what"));
        xml_.writeStartElement(QStringLiteral("ul"));
        for (const LessonArgument& a : l.arguments) {
            xml_.writeStartElement(QStringLiteral("li"));
            element("b", q(a.who) + QStringLiteral(": "));
            xml_.writeCharacters(a.quoted ? QStringLiteral("“") + q(a.said) + QStringLiteral("”") : q(a.said));
            xml_.writeEndElement();
        }
        xml_.writeEndElement();
    }
    if (!l.steps.empty()) {
        element("h2", tr("The steps"));
        xml_.writeStartElement(QStringLiteral("ol"));
        for (const LessonStep& step : l.steps) {
            xml_.writeStartElement(QStringLiteral("li"));
            element("b", q(step.title));
            xml_.writeEmptyElement(QStringLiteral("br"));
            xml_.writeCharacters(q(step.text));
            xml_.writeEndElement();
        }
        xml_.writeEndElement();
    }
    if (s_.stepFigures.size() > 1) {
        element("h2", tr("What each step's run showed"));
        startTable(s_.stepFigures.front());
        for (qsizetype i = 1; i < s_.stepFigures.size(); ++i) {
            QStringList cells = s_.stepFigures[i];
            for (qsizetype c = 1; c < cells.size(); ++c)
                cells[c] = num(cells[c]);
            row(cells);
        }
        endTable();
    }
}

void Markup::verdicts()
{
    const ExperimentResult& r = *s_.verdicts;
    element("h2", tr("The claims, measured on this computer"));
    element("p",
        tr("%1, the lesson's %2%3. Every figure is a ratio of runs made here side by side, or a count: never a "
           "time set beside one posted years ago on other hardware.")
            .arg(r.provenance.host.cpus ? QString::fromStdString(host_text(r.provenance.host))
                                        : tr("%1 CPUs").arg(r.machine_cpus))
            .arg(r.quick ? tr("quick form") : tr("full form"))
            .arg(r.incomplete ? tr(", stopped before every run was made") : QString()),
        "note");
    startTable({ tr("#"), tr("Claim"), tr("The thread's figure"), tr("Ours (median)"), tr("Verdict"), tr("Why") },
        { 3, 30, 19, 19, 10, 19 });
    for (std::size_t i = 0; i < r.claims.size(); ++i) {
        const ClaimResult& c = r.claims[i];
        const QString quote = c.claim.quoted ? QStringLiteral("“") : QString();
        const QString unquote = c.claim.quoted ? QStringLiteral("”") : QString();
        startRow();
        element("td", QString::number(i + 1), "n");
        element("td", q(c.claim.by) + QStringLiteral(": ") + quote + q(c.claim.statement) + unquote);
        element("td", c.claim.thread_figure.empty() ? tr("none posted") : q(c.claim.thread_figure));
        // The figure, then how far its repeats lay apart, in the figure's
        // own terms ("3 repeats from 1.9x to 2.6x").
        QString ours = q(c.our_figure);
        if (c.values.size() > 1)
            ours += QStringLiteral("; ") + q(repeats_range(c));
        element("td", ours);
        verdictCell(c.verdict);
        element("td", q(c.why));
        xml_.writeEndElement();
        if (!c.modelled.empty())
            modelledVerdict(c);
    }
    endTable();
    for (const TableResult& t : r.tables)
        threadTable(t);
}

void Markup::threadTable(const TableResult& t)
{
    // The thread's figures beside ours, a row a CPU count, as `experiment`
    // prints them; then where each curve peaks, in words.
    element("h2", q(t.table.title));
    element("p",
        tr("%1, %2; ours on a modelled %3, one run a point, the same on every computer (%4).")
            .arg(q(t.table.by), q(t.table.source), q(t.machine_title), q(t.unit)),
        "note");
    QStringList head { tr("CPUs") };
    for (std::size_t s = 0; s < t.table.series.size(); ++s) {
        if (!t.table.series[s].thread.empty())
            head << tr("%1: the thread").arg(q(t.labels[s]));
        head << tr("%1: ours").arg(q(t.labels[s]));
    }
    startTable(head);
    for (std::size_t i = 0; i < t.table.cpus.size(); ++i) {
        QStringList cells { num(QString::number(t.table.cpus[i])) };
        for (std::size_t s = 0; s < t.table.series.size(); ++s) {
            if (!t.table.series[s].thread.empty())
                cells << num(q(readable_number(t.table.series[s].thread[i])));
            const double ours = t.ours[s][i];
            cells << (std::isnan(ours) ? tr("not measured") : num(q(readable_number(ours))));
        }
        row(cells);
    }
    endTable();
    for (const std::string& line : table_shape(t))
        element("p", q(line) + QLatin1Char('.'));
}

void Markup::modelledVerdict(const ClaimResult& c)
{
    // The same claim on its thread's machine, on the row below this
    // computer's: one run of each side, and its sensitivity.
    const ClaimResult& m = c.modelled.front();
    startRow();
    element("td", QString(), "n");
    element("td", tr("The same claim, %1").arg(q(modelled_machine_text(m))));
    element("td", tr("as above"));
    element("td", q(m.our_figure) + tr("; the same in every run"));
    verdictCell(m.verdict);
    element("td", q(m.why) + QStringLiteral("; ") + q(sensitivity_text(c)));
    xml_.writeEndElement();
}

void Markup::verdictCell(LessonVerdict verdict)
{
    // Its class, the verdict's words hyphenated, colours it (held, did-not-hold, inconclusive).
    const QString words = q(lesson_verdict_name(verdict));
    QString cls = words;
    cls.replace(QLatin1Char(' '), QLatin1Char('-'));
    xml_.writeStartElement(QStringLiteral("td"));
    xml_.writeAttribute(QStringLiteral("class"), cls);
    xml_.writeCharacters(words);
    xml_.writeEndElement();
}

void Markup::parameters()
{
    const RunResult& r = *s_.run;
    element("h2", tr("What ran"));
    element("p", q(parameter_caption(r.scenario)) + QLatin1Char('.'));
    // The fields this scenario sets away from their defaults: what makes it
    // this experiment and not another.
    const json::Value doc = scenario_to_json(r.scenario, true);
    std::vector<QStringList> rows;
    for (const ScenarioField& f : scenario_fields()) {
        if (f.object.empty() && f.path != "duration_seconds" && f.path != "sample_interval_ms")
            continue; // the title, source and description are said above
        const json::Value* v = json::find_path(doc, f.path);
        if (!v || json::write(*v, -1) == json::write(f.default_value, -1))
            continue;
        const QString value = v->is_string() ? q(v->as_string()) : q(json::write(*v, -1));
        rows.push_back({ q(f.info->label), q(f.path),
            value + (f.info->unit.empty() ? QString() : QLatin1Char(' ') + q(f.info->unit)), q(f.info->meaning) });
    }
    if (rows.empty()) {
        element("p", tr("Every parameter has its default value."), "note");
        return;
    }
    startTable({ tr("Parameter"), tr("Field"), tr("Value"), tr("What it does") }, { 16, 22, 14, 48 });
    for (const QStringList& cells : rows) {
        startRow();
        element("td", cells[0]);
        xml_.writeStartElement(QStringLiteral("td"));
        element("code", cells[1]);
        xml_.writeEndElement();
        element("td", cells[2]);
        element("td", cells[3]);
        xml_.writeEndElement();
    }
    endTable();
    element("p", tr("Every other parameter has its default value."), "note");
}

void Markup::counters()
{
    const RunResult& r = *s_.run;
    const PageCacheStats& pc = r.page_cache;
    element("h2", tr("What happened"));
    QString ended = q(r.state);
    if (r.ended_by == RunEnd::Duration)
        ended = tr("ran for its set duration");
    else if (r.ended_by == RunEnd::Cancelled)
        ended = tr("cancelled before its end");
    else if (r.ended_by == RunEnd::Finished)
        ended = tr("every CPU finished its operations");
    startTable({ tr("Counter"), tr("Value"), tr("What it counts") }, { 20, 12, 68 });
    row({ tr("Running time"), num(QString::number(r.wall_seconds, 'f', 3) + QStringLiteral(" s")),
        tr("From the start to the last CPU stopping: %1.").arg(ended) });
    if (!r.error.empty())
        row({ tr("Error"), q(r.error), tr("Why the run failed.") });
    row({ tr("Operations"), num(r.operations),
        tr("Reads, writes and page faults the simulated CPUs made: %1 per second.")
            .arg(groupedNumber(std::uint64_t(r.operations_per_s()))) });
    if (r.cpu_seconds > 0)
        row({ tr("CPU time"), num(QString::number(r.cpu_seconds, 'f', 3) + QStringLiteral(" s")),
            tr("Time every thread spent on a processor, spinning on locks included.") });
    row({ tr("Minor faults"), num(r.faults_of(FaultKind::Minor)),
        tr("Faults on a page already in the page cache: only the page table changes.") });
    row({ tr("Major faults"), num(r.faults_of(FaultKind::Major)),
        tr("Faults that had to read the page from the disk.") });
    row({ tr("Faults waiting for I/O"), num(r.faults_of(FaultKind::WaitIo)),
        tr("Faults on a page another CPU was already reading: they sleep on its page lock.") });
    row({ tr("Anonymous faults"), num(r.faults_of(FaultKind::Anon)), tr("Faults on memory backed by no file.") });
    row({ tr("Already mapped"), num(r.faults_of(FaultKind::Mapped)),
        tr("Faults that found the page table entry already set by another CPU.") });
    if (r.fault_around_mapped)
        row({ tr("Mapped by fault-around"), num(r.fault_around_mapped),
            tr("Cached neighbours mapped ahead of their own fault.") });
    row({ tr("PTE back-outs"), num(r.pte_backouts),
        tr("Faults that found their page table entry set meanwhile and backed out.") });
    row({ tr("Page-lock sleeps"), num(r.page_locks.waits),
        tr("Times a CPU slept on a locked page, %1 ms in all.")
            .arg(QString::number(double(r.page_locks.wait_ns) / 1e6, 'f', 3)) });
    for (std::size_t d = 0; d < r.devices.size(); ++d) {
        const DeviceSummary& dev = r.devices[d];
        const QString disk = r.devices.size() > 1 ? tr("Disk %1 requests").arg(d) : tr("Disk requests");
        row({ disk, num(dev.requests),
            tr("Requests the %1 disk served (%2 submitted, %3 merged into a queued one); %4 pages read, %5 written; "
               "busy %6 s.")
                .arg(q(dev.model), groupedNumber(dev.submitted), groupedNumber(dev.merged), groupedNumber(dev.pages),
                    groupedNumber(dev.pages_written), QString::number(double(dev.busy_ns) / 1e9, 'f', 3)) });
    }
    row({ tr("Frames in use"), num(r.frames_used),
        tr("Of %1 page frames of memory; reclaim starts below %2 free (the low watermark).")
            .arg(groupedNumber(r.frames_total), groupedNumber(r.watermarks.low)) });
    row({ tr("Events"), num(r.events_pushed),
        tr("Trace records the CPUs wrote; %1 dropped because the reader fell behind.")
            .arg(groupedNumber(r.events_dropped)) });
    endTable();

    // The page cache's own counters, a table for each part of it; reclaim
    // and kswapd only when reclaim evicted pages, writeback only when the
    // run dirtied any.
    const auto counterTable = [&](const QString& title, const auto& rows) {
        element("h3", title);
        startTable({ tr("Counter"), tr("Value"), tr("What it counts") }, { 20, 12, 68 });
        rows();
        endTable();
    };
    const std::span cache = page_cache_counters();
    counterTable(tr("The page cache"), [&] {
        counterRows(cache, "page_cache", pc);
        row({ tr("Hit ratio"), num(pc.lookups ? percent(double(pc.hits) / double(pc.lookups)) : QStringLiteral("-")),
            tr("Lookups that found the page cached.") });
        row({ tr("Pages cached at the end"), num(r.pages_cached),
            tr("Pages in the page cache when the run stopped.") });
    });
    if (reclaim_evicted(pc))
        counterTable(tr("Reclaim"), [&] { counterRows(cache, "reclaim", pc); });
    if (r.kswapd_on && any_count(kswapd_counters(), "kswapd", r.kswapd))
        counterTable(tr("The background reclaimer"), [&] { counterRows(kswapd_counters(), "kswapd", r.kswapd); });
    if (any_count(cache, "writeback", pc))
        counterTable(tr("Writeback"), [&] { counterRows(cache, "writeback", pc); });
}

bool Markup::charts(QString* error)
{
    element("h2", tr("Charts"));
    element("p", tr("Each chart covers the whole run, sampled every %1 ms.").arg(s_.run->scenario.sample_interval_ms),
        "note");
    QStringList empty;
    for (std::size_t i = 0; i < charts_.size(); ++i) {
        const ReportChart& c = charts_[i];
        if (!c.hasData) {
            empty.append(c.title);
            continue;
        }
        if (!figure_(xml_, c, int(i), error))
            return false;
    }
    if (!empty.isEmpty())
        element("p", tr("Left out, as this run gave them nothing to draw: %1.").arg(empty.join(QStringLiteral("; "))),
            "note");
    return true;
}

void Markup::locks()
{
    const RunResult& r = *s_.run;
    element("h2", tr("Locks"));
    element("p",
        tr("The columns of the kernel's lock statistics (lockstat). A contention is an acquisition that found the "
           "lock taken and had to wait; a bounce is an acquisition on another CPU than the last one, which moves the "
           "lock's cache line between processors. Times in microseconds."),
        "note");
    element("h3", tr("Lock classes"));
    element("p", tr("All the locks of one kind together, whether each has a name or not."), "note");
    lockTable(r.lock_classes, true);
    element("h3", tr("Named locks"));
    lockTable(r.locks, false);
}

void Markup::lockTable(const std::vector<sync::LockStatRow>& all, bool classes)
{
    // As the command line prints them: most contended first.
    std::vector<const sync::LockStatRow*> rows;
    for (const sync::LockStatRow& r : all)
        rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
        return a->contentions != b->contentions ? a->contentions > b->contentions : a->acquisitions > b->acquisitions;
    });
    // A radix tree with per-node locks names thousands of them; the class
    // table has them all.
    constexpr std::size_t kMaxNamed = 30;
    const std::size_t shown = classes ? rows.size() : std::min(rows.size(), kMaxNamed);
    if (rows.empty()) {
        element("p", tr("None."), "note");
        return;
    }
    // The class of a named lock is its name without the instance
    // ("mm[0].page_table_lock"); a class row says how many locks it holds.
    startTable({ classes ? tr("Class") : tr("Lock"), tr("Acquisitions"), tr("Contentions"), tr("Contended"),
        tr("Acq.\nbounces"), tr("Con.\nbounces"), tr("Wait\ntotal"), tr("Wait\navg"), tr("Wait\nmax"), tr("Hold\navg"),
        tr("Hold\nmax") });
    for (std::size_t i = 0; i < shown; ++i) {
        const sync::LockStatRow& l = *rows[i];
        QString name = q(l.name);
        if (classes && l.instances != 1)
            name += tr(" (%1 locks)").arg(groupedNumber(l.instances));
        row({ QLatin1Char('!') + name, num(l.acquisitions), num(l.contentions), num(percent(l.contention_ratio())),
            num(l.acq_bounces), num(l.con_bounces), num(micros(double(l.wait_total_ns))), num(micros(l.wait_avg_ns())),
            num(micros(double(l.wait_max_ns))), num(micros(l.hold_avg_ns())), num(micros(double(l.hold_max_ns))) });
    }
    endTable();
    if (shown < rows.size())
        element("p",
            tr("%1 less contended locks are left out; their class's row counts them.").arg(rows.size() - shown),
            "note");
}

void Markup::histograms()
{
    element("h2", tr("Latencies"));
    element("p",
        tr("How long each kind of event took. The quantiles are the lower end of the power-of-two bucket that holds "
           "them, the resolution the histograms keep; the mean and the maximum are exact. Times in microseconds."),
        "note");
    const auto name = [](const std::string& n) {
        if (n == "fault.minor")
            return tr("Minor fault");
        if (n == "fault.major")
            return tr("Major fault");
        if (n == "fault.wait_io")
            return tr("Fault waiting for I/O");
        if (n == "fault.anon")
            return tr("Anonymous fault");
        if (n == "read")
            return tr("read(2)");
        if (n == "device")
            return tr("Disk request");
        return q(n);
    };
    startTable({ tr("Event"), tr("Count"), tr("Mean"), tr("Median"), tr("90th percentile"), tr("99th percentile"),
        tr("Max") });
    for (const HistogramSummary& h : s_.run->histograms)
        row({ name(h.name), num(h.count), num(micros(h.mean_ns)), num(micros(double(h.p50_ns))),
            num(micros(double(h.p90_ns))), num(micros(double(h.p99_ns))), num(micros(double(h.max_ns))) });
    endTable();
}

} // namespace

QString reportTitle(const ReportSubject& subject)
{
    if (subject.lesson)
        return q(subject.lesson->title);
    if (subject.verdicts)
        return q(subject.verdicts->title);
    return subject.run ? scenarioTitle(subject.run->scenario) : tr("Report");
}

QString reportMarkup(const ReportSubject& subject, const std::vector<ReportChart>& charts, ReportMedium medium,
    const FigureWriter& figure, QString* error, const std::set<TableRow>& breaks, std::vector<TableRow>* pieces)
{
    Markup markup(subject, charts, medium, figure, breaks);
    QString text = markup.write(error);
    if (pieces)
        *pieces = markup.pieces();
    return text;
}

} // namespace pcl::ui
