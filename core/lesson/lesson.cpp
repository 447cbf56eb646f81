// Lesson files: reading and checking (docs/lesson-format.md).
//
// One pass walks the document with the path of each member, noting
// unknown members, values of the wrong type and values out of range as it
// goes; a second checks what refers to what (a step's run, a claim's runs
// and lock). Whether each run's overrides fit its scenario is the
// experiment's to check (lesson/experiment.h), since only it reads the
// scenarios. What either refuses goes into a LessonProblems, and what
// depends on it is not checked (lesson_problems.h).
#include "lesson/lesson.h"

#include "lesson/lesson_probe.h"
#include "lesson/lesson_problems.h"
#include "lib/field_table.h"
#include "lib/json.h"
#include "sim/engine_fields.h"
#include "sim/run_figures.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

namespace pcl {

LessonError::LessonError(std::string field, const std::string& message)
    : std::invalid_argument(message)
    , field_(std::move(field))
{
}

std::string_view lesson_verdict_name(LessonVerdict verdict) noexcept
{
    switch (verdict) {
    case LessonVerdict::Held:
        return "held";
    case LessonVerdict::DidNotHold:
        return "did not hold";
    case LessonVerdict::Inconclusive:
        return "inconclusive";
    }
    return "?";
}

const std::vector<std::string_view>& lesson_views()
{
    static const std::vector<std::string_view> views
        = { "cpus", "radix", "hash", "skiplist", "readahead", "pagetable", "locks", "charts", "probe", "tornpte" };
    return views;
}

const std::vector<std::string_view>& lesson_members()
{
    static const std::vector<std::string_view> members = { "version", "title", "thread", "citation", "question",
        "summary", "arguments", "runs", "steps", "claims", "tables", "quick" };
    return members;
}

const LessonRun* Lesson::find_run(std::string_view name) const
{
    for (const LessonRun& r : runs)
        if (r.name == name)
            return &r;
    return nullptr;
}

namespace {

std::string joined(const std::vector<std::string_view>& names)
{
    std::string s;
    for (std::string_view n : names)
        s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

std::string indexed(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

/// Where the reader notes what it refuses, and goes on: "path: reason".
class Found {
public:
    explicit Found(LessonProblems& problems)
        : problems_(problems)
    {
    }

    void add(const std::string& path, const std::string& reason) { problems_.add(path, path + ": " + reason); }
    void add(const FieldError& e) { problems_.add(e.field(), e.what()); }
    void wrong_type(const std::string& path, const char* want, const json::Value& v)
    {
        add(path, std::string("expected ") + want + ", got " + json::Value::type_name(v.type()));
    }
    /// Runs @check: false, the problem noted, when it throws FieldError.
    template <typename Check> bool attempt(Check&& check)
    {
        try {
            check();
            return true;
        } catch (const FieldError& e) {
            add(e);
            return false;
        }
    }
    bool at(std::string_view path) const { return problems_.at(path); }
    bool involves(std::string_view path) const { return problems_.involves(path); }

private:
    LessonProblems& problems_;
};

/// One JSON object of the document, at @path, whose members must all be
/// among those its reader asks for. Each accessor notes what it refuses and
/// gives the member's default instead; in a value that is not an object,
/// itself one problem, nothing is read and nothing more is refused.
class Member {
public:
    Member(const json::Value& v, std::string path, const std::vector<std::string_view>& allowed, Found& found)
        : v_(v)
        , path_(std::move(path))
        , found_(found)
    {
        if (!v.is_object()) {
            found.wrong_type(path_.empty() ? "(document)" : path_, "an object", v);
            return;
        }
        for (const auto& [key, value] : v.as_object())
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                found.add(at(key), "unknown member; allowed: " + joined(allowed));
    }

    bool is_object() const { return v_.is_object(); }
    std::string at(std::string_view key) const
    {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }
    const json::Value* find(std::string_view key) const { return v_.find(key); }
    /// How many of @keys it has.
    std::size_t count(std::initializer_list<std::string_view> keys) const
    {
        return std::size_t(
            std::count_if(keys.begin(), keys.end(), [&](std::string_view k) { return find(k) != nullptr; }));
    }
    const json::Value* need(std::string_view key) const
    {
        const json::Value* v = find(key);
        if (!v && is_object())
            found_.add(at(key), "is required");
        return v;
    }

    std::string text(std::string_view key, bool required = true) const
    {
        std::string s;
        if (const json::Value* v = required ? need(key) : find(key))
            if (found_.attempt([&] { field_io::read(*v, at(key), s); }) && required && s.empty())
                found_.add(at(key), "must not be empty");
        return s;
    }
    bool flag(std::string_view key) const
    {
        bool b = false;
        if (const json::Value* v = find(key))
            found_.attempt([&] { field_io::read(*v, at(key), b); });
        return b;
    }
    double number(std::string_view key, double def, double min, double max) const
    {
        double d = def;
        if (const json::Value* v = find(key))
            if (found_.attempt([&] { field_io::read(*v, at(key), d); }) && !(d >= min && d <= max)) {
                found_.add(at(key), "must be in [" + format(min) + ", " + format(max) + "], got " + format(d));
                d = def;
            }
        return d;
    }
    std::uint64_t integer(std::string_view key, std::uint64_t def, std::uint64_t min, std::uint64_t max) const
    {
        std::uint64_t n = def;
        if (const json::Value* v = find(key))
            if (found_.attempt([&] { field_io::read(*v, at(key), n); }) && (n < min || n > max)) {
                found_.add(at(key),
                    "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + std::to_string(n));
                n = def;
            }
        return n;
    }
    /// A list of "path=value" overrides: those that read (a refused one
    /// leaves the others' indices behind: what checks them asks first).
    std::vector<std::string> overrides(std::string_view key) const
    {
        std::vector<std::string> out;
        const json::Value* v = find(key);
        if (!v)
            return out;
        if (!v->is_array()) {
            found_.wrong_type(at(key), "an array of \"path=value\" strings", *v);
            return out;
        }
        for (std::size_t i = 0; i < v->as_array().size(); ++i) {
            const std::string here = indexed(at(key), i);
            std::string s;
            if (!found_.attempt([&] { field_io::read(v->as_array()[i], here, s); }))
                continue;
            const std::size_t eq = s.find('=');
            if (eq == std::string::npos || eq == 0)
                found_.add(here, "expected \"path=value\" (e.g. \"workload.files=shared\"), got \"" + s + "\"");
            else
                out.push_back(std::move(s));
        }
        return out;
    }
    /// Calls @each(element, path) for every element of the array @key.
    template <typename Each> void each(std::string_view key, bool required, Each&& each) const
    {
        const json::Value* v = required ? need(key) : find(key);
        if (!v)
            return;
        if (!v->is_array())
            return found_.wrong_type(at(key), "an array", *v);
        if (required && v->as_array().empty())
            return found_.add(at(key), "must not be empty");
        for (std::size_t i = 0; i < v->as_array().size(); ++i)
            each(v->as_array()[i], indexed(at(key), i));
    }

private:
    static std::string format(double d)
    {
        std::string s = std::to_string(d);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.')
            s.pop_back();
        return s;
    }

    const json::Value& v_;
    std::string path_;
    Found& found_;
};

LessonHighlight read_highlight(const json::Value& v, const std::string& path, Found& found)
{
    const Member m(v, path, { "lock", "file", "cpu", "bucket", "node" }, found);
    LessonHighlight h;
    // None named but an unknown member: that member is the mistake.
    const std::size_t named = m.count({ "lock", "file", "cpu", "bucket", "node" });
    if (!m.is_object() || (named == 0 && !v.as_object().empty()))
        return h;
    if (named != 1) {
        found.add(path, "names one thing: a lock, a file, a cpu, a bucket or a node");
        return h;
    }
    if (m.find("lock")) {
        h.kind = LessonHighlight::Kind::Lock;
        h.lock = m.text("lock");
        return h;
    }
    const std::pair<const char*, LessonHighlight::Kind> numbered[]
        = { { "file", LessonHighlight::Kind::File }, { "cpu", LessonHighlight::Kind::Cpu },
              { "bucket", LessonHighlight::Kind::Bucket }, { "node", LessonHighlight::Kind::Node } };
    for (const auto& [key, kind] : numbered)
        if (m.find(key)) {
            h.kind = kind;
            h.number = m.integer(key, 0, 0, ~std::uint64_t(0));
        }
    return h;
}

LessonPause read_pause(const json::Value& v, const std::string& path, Found& found)
{
    const Member m(
        v, path, { "tree_height", "lock_contentions", "readahead_wasted", "run_ends", "shown_seconds" }, found);
    LessonPause p;
    const std::size_t named = m.count({ "tree_height", "lock_contentions", "readahead_wasted", "run_ends" });
    if (!m.is_object() || (named == 0 && v.as_object().size() > m.count({ "shown_seconds" })))
        return p;
    if (named != 1) {
        found.add(path, "names one condition: tree_height, lock_contentions, readahead_wasted or run_ends");
        return p;
    }
    p.shown_seconds = m.number("shown_seconds", LessonPause::kShownSeconds, 0, 600);
    if (m.find("tree_height")) {
        p.kind = LessonPause::Kind::TreeHeight;
        p.count = m.integer("tree_height", 1, 1, 32);
    } else if (const json::Value* c = m.find("lock_contentions")) {
        const Member lc(*c, m.at("lock_contentions"), { "lock", "count" }, found);
        p.kind = LessonPause::Kind::LockContentions;
        p.lock = lc.text("lock");
        p.count = lc.integer("count", 1, 1, ~std::uint64_t(0));
    } else if (m.find("readahead_wasted")) {
        p.kind = LessonPause::Kind::ReadaheadWasted;
        p.count = m.integer("readahead_wasted", 1, 1, ~std::uint64_t(0));
    } else {
        const json::Value& ends = *m.find("run_ends");
        if (ends.is_bool() && !ends.as_bool())
            found.add(m.at("run_ends"), "must be true (leave the condition out for none)");
        else if (m.flag("run_ends")) {
            p.kind = LessonPause::Kind::RunEnds;
            if (m.find("shown_seconds"))
                found.add(m.at("shown_seconds"), "has no use with run_ends: the run has ended");
        }
        p.shown_seconds = 0;
    }
    return p;
}

LessonStep read_step(const json::Value& v, const std::string& path, Found& found)
{
    LessonStep s;
    const Member m(v, path, { "title", "text", "run", "set", "pacing", "view", "highlight", "pause_when" }, found);
    if (!m.is_object())
        return s;
    s.title = m.text("title");
    s.text = m.text("text");
    s.run = m.text("run");
    s.set = m.overrides("set");
    if (const json::Value* p = m.find("pacing")) {
        // The bounds of the scenario's own pacing fields, read from their
        // table so that the two cannot differ: 0 is unpaced.
        const Member pacing(*p, m.at("pacing"), { "ops_per_second", "hold_stretch_ns" }, found);
        const Field<EngineConfig>& speed = *pacing_fields().find("ops_per_second");
        const Field<EngineConfig>& stretch = *pacing_fields().find("hold_stretch_ns");
        s.ops_per_second = pacing.number("ops_per_second", 0, speed.min_real, speed.max_real);
        s.hold_stretch_ns = pacing.integer("hold_stretch_ns", 0, stretch.min_int, stretch.max_int);
    }
    s.view = m.text("view");
    if (!s.view.empty() && std::find(lesson_views().begin(), lesson_views().end(), s.view) == lesson_views().end())
        found.add(m.at("view"), "'" + s.view + "' is not a view; allowed: " + joined(lesson_views()));
    if (const json::Value* h = m.find("highlight"))
        s.highlight = read_highlight(*h, m.at("highlight"), found);
    if (const json::Value* p = m.find("pause_when"))
        s.pause = read_pause(*p, m.at("pause_when"), found);
    return s;
}

/// The metric @m names in its member "metric" (required); nothing, the
/// problem noted, for a name that is not one.
std::optional<LessonMetric> read_metric(const Member& m, Found& found)
{
    const std::string name = m.text("metric");
    if (const auto parsed = parse_lesson_metric(name))
        return parsed;
    if (!name.empty()) {
        std::vector<std::string_view> names;
        for (const LessonMetricInfo& info : lesson_metrics())
            names.push_back(info.name);
        found.add(m.at("metric"), "'" + name + "' is not a metric; allowed: " + joined(names));
    }
    return std::nullopt;
}

/// The claim's metric or named figure, and the lock classes it reads.
void read_measure(const Member& measure, LessonClaim& c, Found& found)
{
    const bool metric = measure.find("metric"), figure = measure.find("figure");
    if (metric && figure)
        found.add(measure.at("figure"), "a claim measures one of metric and figure, not both");
    else if (!metric && !figure)
        found.add(measure.at("metric"), "is required: a claim measures one of metric and figure");
    // A named figure is checked against its runs once they are all read
    // (check_references): it depends on what each run is.
    if (figure && !metric)
        c.figure = measure.text("figure");
    // Whether the metric reads a lock is known only of a known metric.
    bool lock_known = figure && !metric, needs_lock = false;
    if (metric && !figure)
        if (const auto parsed = read_metric(measure, found)) {
            c.metric = *parsed;
            needs_lock = lesson_metric_info(c.metric).needs_lock;
            lock_known = true;
        }
    c.lock = measure.text("lock", lock_known && needs_lock);
    if (lock_known && !needs_lock && !c.lock.empty())
        found.add(measure.at("lock"), "is only for a lock metric");
    c.run = measure.text("run");
    c.over = measure.text("over", false);
    c.over_lock = measure.text("over_lock", false);
    if (lock_known && !c.over_lock.empty() && !found.involves(measure.at("over")) && (c.over.empty() || !needs_lock))
        found.add(measure.at("over_lock"), "is only for a lock metric divided by another run's");
}

LessonClaim read_claim(const json::Value& v, const std::string& path, Found& found)
{
    const Member m(v, path,
        { "statement", "by", "quoted", "thread_figure", "measure", "repeats", "rule", "min_cpus", "race", "machine" },
        found);
    LessonClaim c;
    if (!m.is_object())
        return c;
    c.statement = m.text("statement");
    c.by = m.text("by");
    c.quoted = m.flag("quoted");
    c.thread_figure = m.text("thread_figure", false);
    if (const json::Value* given = m.need("measure")) {
        const Member measure(
            *given, m.at("measure"), { "metric", "figure", "lock", "run", "over", "over_lock" }, found);
        if (measure.is_object())
            read_measure(measure, c, found);
    }
    c.repeats = unsigned(m.integer("repeats", 3, 1, 100));
    c.min_cpus = unsigned(m.integer("min_cpus", 1, 1, 4096));
    c.machine = m.text("machine", false);

    // Whether the rule is at most is known only of a rule with one bound.
    bool bound_known = false;
    if (const json::Value* given = m.need("rule")) {
        const Member rule(*given, m.at("rule"), { "at_least", "at_most", "max_spread" }, found);
        const bool least = rule.find("at_least"), most = rule.find("at_most");
        if (least && most)
            found.add(rule.at("at_least"), "a rule has one of at_least and at_most, and this one has at_most too");
        else if (rule.is_object() && !least && !most)
            found.add(rule.at("at_least"), "is required: a rule needs one of at_least and at_most");
        else if (rule.is_object()) {
            bound_known = true;
            c.at_most = most;
            c.threshold = rule.number(most ? "at_most" : "at_least", 1, 0, 1e18);
        }
        c.max_spread = rule.number("max_spread", 0.5, 0, 100);
    }
    c.race = m.flag("race");
    // Not seeing a race proves nothing, which only matters to a claim that
    // it happens: one that it never does is simply held when none is seen.
    if (c.race && bound_known && !found.involves(m.at("measure.over")) && (c.at_most || !c.over.empty()))
        found.add(m.at("race"), "is only for a count that must reach at_least (a race that happens)");
    return c;
}

LessonTable read_table(const json::Value& v, const std::string& path, Found& found)
{
    const Member m(v, path, { "title", "by", "source", "machine", "metric", "lock", "cpus", "set", "series" }, found);
    LessonTable t;
    if (!m.is_object())
        return t;
    // Its words, each required.
    for (const auto& [key, text] : { std::pair { "title", &t.title }, std::pair { "by", &t.by },
             std::pair { "source", &t.source }, std::pair { "machine", &t.machine } })
        *text = m.text(key);
    bool needs_lock = false;
    if (const auto parsed = read_metric(m, found)) {
        t.metric = *parsed;
        needs_lock = lesson_metric_info(t.metric).needs_lock;
    }
    t.lock = m.text("lock", needs_lock);
    if (!needs_lock && !t.lock.empty())
        found.add(m.at("lock"), "is only for a lock metric");
    m.each("cpus", true, [&](const json::Value& c, const std::string& at) {
        std::uint64_t n = 0;
        if (!found.attempt([&] { field_io::read(c, at, n); }))
            return;
        if (n < 1 || n > 4096)
            found.add(at, "must be in [1, 4096], got " + std::to_string(n));
        else if (!t.cpus.empty() && n <= t.cpus.back())
            found.add(
                at, "must be more than the count before it (" + std::to_string(t.cpus.back()) + "): the counts rise");
        else
            t.cpus.push_back(unsigned(n));
    });
    t.set = m.overrides("set");
    const bool cpus_read = !found.involves(m.at("cpus"));
    m.each("series", true, [&](const json::Value& s, const std::string& at) {
        const Member sm(s, at, { "run", "label", "thread" }, found);
        LessonTableSeries series;
        if (sm.is_object()) {
            series.run = sm.text("run");
            series.label = sm.text("label", false);
            sm.each("thread", false, [&](const json::Value& f, const std::string& fat) {
                double d = 0;
                if (!found.attempt([&] { field_io::read(f, fat, d); }))
                    return;
                if (!(d >= 0))
                    found.add(fat, "must not be negative");
                series.thread.push_back(d);
            });
            if (cpus_read && !found.involves(sm.at("thread")) && !series.thread.empty()
                && series.thread.size() != t.cpus.size())
                found.add(sm.at("thread"),
                    "has " + std::to_string(series.thread.size()) + " figures for the table's "
                        + std::to_string(t.cpus.size()) + " CPU counts: one a count, in their order");
        }
        t.series.push_back(std::move(series));
    });
    return t;
}

LessonRun read_run(const json::Value& v, const std::string& path, Found& found)
{
    const Member r(v, path, { "name", "scenario", "probe", "set", "quick", "label" }, found);
    LessonRun run;
    if (!r.is_object())
        return run;
    run.name = r.text("name");
    // A run with both or neither is of no known kind: its scenario and
    // probe stay empty, and nothing is checked against what it is.
    const bool scenario = r.find("scenario"), probe = r.find("probe");
    if (scenario && probe)
        found.add(r.at("probe"), "a run needs one of scenario and probe, not both");
    else if (!scenario && !probe)
        found.add(r.at("scenario"), "is required: a run needs one of scenario and probe");
    else if (scenario)
        run.scenario = r.text("scenario");
    else
        run.probe = r.text("probe");
    run.set = r.overrides("set");
    run.quick = r.overrides("quick");
    if (scenario && !probe && !run.quick.empty())
        found.add(r.at("quick"), "is for a probe run; a scenario run takes the lesson's quick overrides");
    run.label = r.text("label");
    return run;
}

/// A probe run's parameters, plain and in the quick form, checked against
/// its probe's one by one, each named by its own path.
void check_probe_run(const LessonRun& run, const std::string& path, Found& found)
{
    const LessonProbe* probe = find_lesson_probe(run.probe);
    if (!probe) {
        std::vector<std::string_view> names;
        for (const LessonProbe& p : lesson_probes())
            names.push_back(p.name);
        found.add(path + ".probe", "'" + run.probe + "' is not a probe; allowed: " + joined(names));
        return;
    }
    for (const auto& [list, key] : { std::pair { &run.set, ".set" }, std::pair { &run.quick, ".quick" } }) {
        // A refused element left the others' indices behind.
        if (found.involves(path + key))
            continue;
        for (std::size_t i = 0; i < list->size(); ++i)
            try {
                probe_args(*probe, { (*list)[i] }, indexed(path + key, i));
            } catch (const LessonError& e) {
                found.add(FieldError(e.field(), e.what(), e.what()));
            }
    }
}

/// The unit of figure @figure of @run: one its probe reports, or one of a
/// scenario run's headline figures.
std::string figure_unit(const LessonRun& run, const std::string& figure, const std::string& path)
{
    if (run.is_probe()) {
        const LessonProbe& probe = *find_lesson_probe(run.probe);
        if (const ProbeFigure* f = probe.find_figure(figure))
            return f->unit;
        std::vector<std::string_view> names;
        for (const ProbeFigure& f : probe.figures)
            names.push_back(f.name);
        throw_field_error(path,
            "'" + figure + "' is not a figure of the " + probe.name + " probe (run '" + run.name
                + "'); its figures: " + joined(names));
    }
    const std::vector<RunFigure> figures = run_figures(RunResult {});
    if (const RunFigure* f = find_figure(figures, figure))
        return f->unit;
    std::vector<std::string_view> names;
    for (const RunFigure& f : figures)
        names.push_back(f.name);
    throw_field_error(path,
        "'" + figure + "' is not a figure of a scenario run (run '" + run.name + "'); its figures: " + joined(names));
}

/// Whether what @run is is known: a scenario's, or a known probe's.
bool kind_known(const LessonRun& run)
{
    return !run.scenario.empty() || find_lesson_probe(run.probe);
}

/// What refers to what: runs named once, named runs that exist, probes and
/// their parameters, steps that fit their runs, and figures their runs have.
/// A reference or a run with a problem of its own is not checked further.
void check_references(Lesson& lesson, Found& found)
{
    std::vector<std::string_view> names;
    // A name not among the runs' may be the one a run's refused name was.
    bool names_known = !found.at("runs");
    for (std::size_t i = 0; i < lesson.runs.size(); ++i) {
        const std::string& name = lesson.runs[i].name;
        names_known = names_known && !found.involves(indexed("runs", i) + ".name");
        for (std::size_t j = 0; j < i; ++j)
            if (!name.empty() && name == lesson.runs[j].name)
                found.add(indexed("runs", i) + ".name", "'" + name + "' names another run too");
        names.push_back(name);
    }
    auto run_named = [&](const std::string& name, const std::string& path) -> const LessonRun* {
        if (name.empty() || found.involves(path))
            return nullptr;
        if (const LessonRun* run = lesson.find_run(name))
            return run;
        if (names_known)
            found.add(path, "'" + name + "' is not one of the lesson's runs: " + joined(names));
        return nullptr;
    };
    for (std::size_t i = 0; i < lesson.runs.size(); ++i)
        if (lesson.runs[i].is_probe())
            check_probe_run(lesson.runs[i], indexed("runs", i), found);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        const std::string at = indexed("steps", i) + ".";
        const LessonRun* run = run_named(s.run, at + "run");
        if (!run || !kind_known(*run))
            continue;
        const bool probe_run = run->is_probe();
        // A probe measures once and shows its figures, or its own view walks
        // the run: there is nothing to pace, outline or pause.
        const std::string probe_view = probe_run ? find_lesson_probe(run->probe)->view : std::string();
        const bool probes_view = s.view == "probe"
            || std::any_of(lesson_probes().begin(), lesson_probes().end(),
                [&](const LessonProbe& p) { return !p.view.empty() && p.view == s.view; });
        if (!found.involves(at + "view")) {
            if (probe_run && s.view != "probe" && s.view != probe_view)
                found.add(at + "view",
                    "must be \"probe\"" + (probe_view.empty() ? std::string() : " or \"" + probe_view + "\"")
                        + ": run '" + s.run + "' is a probe's");
            else if (!probe_run && probes_view)
                found.add(at + "view", "\"" + s.view + "\" shows a probe run; run '" + s.run + "' is a scenario's");
        }
        if (!probe_run)
            continue;
        const std::pair<const char*, bool> unused[]
            = { { "set", !s.set.empty() }, { "pacing", s.ops_per_second != 0 || s.hold_stretch_ns != 0 },
                  { "highlight", s.highlight.kind != LessonHighlight::Kind::None },
                  { "pause_when", s.pause.kind != LessonPause::Kind::None } };
        for (const auto& [key, given] : unused)
            if (given)
                found.add(
                    at + key, "a step on a probe run ('" + s.run + "') takes no set, pacing, highlight or pause_when");
    }
    for (std::size_t i = 0; i < lesson.tables.size(); ++i)
        for (std::size_t j = 0; j < lesson.tables[i].series.size(); ++j) {
            const std::string at = indexed(indexed("tables", i) + ".series", j) + ".run";
            if (const LessonRun* run = run_named(lesson.tables[i].series[j].run, at); run && run->is_probe())
                found.add(at,
                    "run '" + run->name
                        + "' is a probe's, which measures this computer: a table is measured on "
                          "its modelled machine, by scenario runs");
        }
    for (std::size_t i = 0; i < lesson.claims.size(); ++i) {
        LessonClaim& c = lesson.claims[i];
        const std::string at = indexed("claims", i) + ".measure.";
        const LessonRun* run = run_named(c.run, at + "run");
        const LessonRun* over = run_named(c.over, at + "over");
        if (run && over && c.over == c.run)
            found.add(at + "over", "divides the run by itself");
        if (found.involves(at + "metric") || found.involves(at + "figure"))
            continue;
        if (c.figure.empty()) {
            for (const LessonRun* side : { run, over })
                if (side && side->is_probe())
                    found.add(at + (side == run ? "run" : "over"),
                        "run '" + side->name + "' is a probe's: its claims read a figure, not a metric");
            continue;
        }
        std::string units[2];
        bool read[2] = { false, false };
        for (int k = 0; k < 2; ++k)
            if (const LessonRun* side = k == 0 ? run : over; side && kind_known(*side))
                read[k] = found.attempt([&] { units[k] = figure_unit(*side, c.figure, at + "figure"); });
        c.figure_unit = units[0];
        if (read[0] && read[1] && units[0] != units[1])
            found.add(
                at + "figure", "'" + c.figure + "' has different units in runs '" + c.run + "' and '" + c.over + "'");
    }
}

} // namespace

Lesson read_lesson(std::string_view text, const std::string& origin, LessonProblems& problems)
{
    Lesson l;
    l.name = std::filesystem::path(origin).stem().string();
    json::Value doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        problems.add(LessonError(
            "", origin + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what()));
        return l;
    }
    Found found(problems);
    // A document of another version is read by other rules: what this
    // build would refuse in it (its members to begin with) says nothing.
    const std::string version = "this build reads version " + std::to_string(Lesson::kVersion);
    if (const json::Value* v = doc.is_object() ? doc.find("version") : nullptr) {
        std::uint64_t n = Lesson::kVersion;
        if (found.attempt([&] { field_io::read(*v, "version", n); }) && n != Lesson::kVersion) {
            found.add("version", version + ", got " + std::to_string(n));
            return l;
        }
    }
    const Member m(doc, "", lesson_members(), found);
    if (!m.is_object())
        return l;
    if (!m.find("version"))
        found.add("version", "is required (" + version + ")");
    l.title = m.text("title");
    l.thread = m.text("thread");
    l.citation = m.text("citation");
    l.question = m.text("question");
    l.summary = m.text("summary");
    m.each("arguments", true, [&](const json::Value& v, const std::string& path) {
        const Member a(v, path, { "who", "said", "quoted" }, found);
        if (a.is_object())
            l.arguments.push_back({ a.text("who"), a.text("said"), a.flag("quoted") });
    });
    // Every element is kept, read or not, so that the runs, steps and
    // claims have the indices of their paths.
    m.each("runs", true,
        [&](const json::Value& v, const std::string& path) { l.runs.push_back(read_run(v, path, found)); });
    m.each("steps", true,
        [&](const json::Value& v, const std::string& path) { l.steps.push_back(read_step(v, path, found)); });
    m.each("claims", true,
        [&](const json::Value& v, const std::string& path) { l.claims.push_back(read_claim(v, path, found)); });
    m.each("tables", false,
        [&](const json::Value& v, const std::string& path) { l.tables.push_back(read_table(v, path, found)); });
    l.quick = m.overrides("quick");
    check_references(l, found);
    return l;
}

Lesson parse_lesson(std::string_view text, const std::string& origin)
{
    LessonProblems problems(origin);
    Lesson l = read_lesson(text, origin, problems);
    if (!problems.empty())
        throw problems.list().front();
    return l;
}

} // namespace pcl
