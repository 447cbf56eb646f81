// Lesson files: reading and checking (docs/lesson-format.md).
//
// One pass walks the document with the path of each member, refusing
// unknown members, values of the wrong type and values out of range as it
// goes; a second checks what refers to what (a step's run, a claim's runs
// and lock). Whether each run's overrides fit its scenario is the
// experiment's to check (lesson/experiment.h), since only it reads the
// scenarios.
#include "lesson/lesson.h"

#include "lesson/lesson_probe.h"
#include "lib/field_table.h"
#include "lib/json.h"
#include "sim/engine_fields.h"
#include "sim/run_figures.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

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

/// One JSON object of the document, at @path, whose members must all be
/// among those its reader asks for.
class Member {
public:
    Member(const json::Value& v, std::string path, std::vector<std::string_view> allowed)
        : v_(v)
        , path_(std::move(path))
    {
        if (!v.is_object())
            throw_field_error(path_.empty() ? "(document)" : path_,
                std::string("expected an object, got ") + json::Value::type_name(v.type()));
        for (const auto& [key, value] : v.as_object())
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                throw_field_error(at(key), "unknown member; allowed: " + joined(allowed));
    }

    std::string at(std::string_view key) const
    {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }
    const json::Value* find(std::string_view key) const { return v_.find(key); }
    const json::Value& need(std::string_view key) const
    {
        if (const json::Value* v = v_.find(key))
            return *v;
        throw_field_error(at(key), "is required");
    }

    std::string text(std::string_view key, bool required = true) const
    {
        std::string s;
        if (const json::Value* v = required ? &need(key) : find(key)) {
            field_io::read(*v, at(key), s);
            if (required && s.empty())
                throw_field_error(at(key), "must not be empty");
        }
        return s;
    }
    bool flag(std::string_view key) const
    {
        bool b = false;
        if (const json::Value* v = find(key))
            field_io::read(*v, at(key), b);
        return b;
    }
    double number(std::string_view key, double def, double min, double max) const
    {
        double d = def;
        if (const json::Value* v = find(key)) {
            field_io::read(*v, at(key), d);
            if (!(d >= min && d <= max))
                throw_field_error(at(key), "must be in [" + format(min) + ", " + format(max) + "], got " + format(d));
        }
        return d;
    }
    std::uint64_t integer(std::string_view key, std::uint64_t def, std::uint64_t min, std::uint64_t max) const
    {
        std::uint64_t n = def;
        if (const json::Value* v = find(key)) {
            field_io::read(*v, at(key), n);
            if (n < min || n > max)
                throw_field_error(at(key),
                    "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + std::to_string(n));
        }
        return n;
    }
    /// A list of "path=value" overrides.
    std::vector<std::string> overrides(std::string_view key) const
    {
        std::vector<std::string> out;
        const json::Value* v = find(key);
        if (!v)
            return out;
        if (!v->is_array())
            field_io::type_error(at(key), "an array of \"path=value\" strings", *v);
        for (std::size_t i = 0; i < v->as_array().size(); ++i) {
            const std::string here = at(key) + "[" + std::to_string(i) + "]";
            std::string s;
            field_io::read(v->as_array()[i], here, s);
            const std::size_t eq = s.find('=');
            if (eq == std::string::npos || eq == 0)
                throw_field_error(here, "expected \"path=value\" (e.g. \"workload.files=shared\"), got \"" + s + "\"");
            out.push_back(std::move(s));
        }
        return out;
    }
    /// Calls @each(element, path) for every element of the array @key.
    template <typename Each> void each(std::string_view key, bool required, Each&& each) const
    {
        const json::Value* v = required ? &need(key) : find(key);
        if (!v)
            return;
        if (!v->is_array())
            field_io::type_error(at(key), "an array", *v);
        if (required && v->as_array().empty())
            throw_field_error(at(key), "must not be empty");
        for (std::size_t i = 0; i < v->as_array().size(); ++i)
            each(v->as_array()[i], at(key) + "[" + std::to_string(i) + "]");
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
};

LessonHighlight read_highlight(const json::Value& v, const std::string& path)
{
    const Member m(v, path, { "lock", "file", "cpu", "bucket", "node" });
    if (v.as_object().size() != 1)
        throw_field_error(path, "names one thing: a lock, a file, a cpu, a bucket or a node");
    LessonHighlight h;
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

LessonPause read_pause(const json::Value& v, const std::string& path)
{
    const Member m(v, path, { "tree_height", "lock_contentions", "readahead_wasted", "run_ends", "shown_seconds" });
    const bool shown = m.find("shown_seconds") != nullptr;
    if (v.as_object().size() != 1 + std::size_t(shown))
        throw_field_error(path, "names one condition: tree_height, lock_contentions, readahead_wasted or run_ends");
    LessonPause p;
    p.shown_seconds = m.number("shown_seconds", LessonPause::kShownSeconds, 0, 600);
    if (m.find("tree_height")) {
        p.kind = LessonPause::Kind::TreeHeight;
        p.count = m.integer("tree_height", 1, 1, 32);
    } else if (const json::Value* c = m.find("lock_contentions")) {
        const Member lc(*c, m.at("lock_contentions"), { "lock", "count" });
        p.kind = LessonPause::Kind::LockContentions;
        p.lock = lc.text("lock");
        p.count = lc.integer("count", 1, 1, ~std::uint64_t(0));
    } else if (m.find("readahead_wasted")) {
        p.kind = LessonPause::Kind::ReadaheadWasted;
        p.count = m.integer("readahead_wasted", 1, 1, ~std::uint64_t(0));
    } else {
        if (!m.flag("run_ends"))
            throw_field_error(m.at("run_ends"), "must be true (leave the condition out for none)");
        if (shown)
            throw_field_error(m.at("shown_seconds"), "has no use with run_ends: the run has ended");
        p.kind = LessonPause::Kind::RunEnds;
        p.shown_seconds = 0;
    }
    return p;
}

LessonStep read_step(const json::Value& v, const std::string& path)
{
    const Member m(v, path, { "title", "text", "run", "set", "pacing", "view", "highlight", "pause_when" });
    LessonStep s;
    s.title = m.text("title");
    s.text = m.text("text");
    s.run = m.text("run");
    s.set = m.overrides("set");
    if (const json::Value* p = m.find("pacing")) {
        // The bounds of the scenario's own pacing fields, read from their
        // table so that the two cannot differ: 0 is unpaced.
        const Member pacing(*p, m.at("pacing"), { "ops_per_second", "hold_stretch_ns" });
        const Field<EngineConfig>& speed = *pacing_fields().find("ops_per_second");
        const Field<EngineConfig>& stretch = *pacing_fields().find("hold_stretch_ns");
        s.ops_per_second = pacing.number("ops_per_second", 0, speed.min_real, speed.max_real);
        s.hold_stretch_ns = pacing.integer("hold_stretch_ns", 0, stretch.min_int, stretch.max_int);
    }
    s.view = m.text("view");
    if (std::find(lesson_views().begin(), lesson_views().end(), s.view) == lesson_views().end())
        throw_field_error(m.at("view"), "'" + s.view + "' is not a view; allowed: " + joined(lesson_views()));
    if (const json::Value* h = m.find("highlight"))
        s.highlight = read_highlight(*h, m.at("highlight"));
    if (const json::Value* p = m.find("pause_when"))
        s.pause = read_pause(*p, m.at("pause_when"));
    return s;
}

LessonClaim read_claim(const json::Value& v, const std::string& path)
{
    const Member m(
        v, path, { "statement", "by", "quoted", "thread_figure", "measure", "repeats", "rule", "min_cpus", "race" });
    LessonClaim c;
    c.statement = m.text("statement");
    c.by = m.text("by");
    c.quoted = m.flag("quoted");
    c.thread_figure = m.text("thread_figure", false);

    const Member measure(
        m.need("measure"), m.at("measure"), { "metric", "figure", "lock", "run", "over", "over_lock" });
    // Named at "figure": `validate`, having taken out an unknown figure,
    // then stops there instead of reporting the claim again.
    if (bool(measure.find("metric")) == bool(measure.find("figure")))
        throw_field_error(measure.at("figure"), "a claim measures one of metric and figure");
    // A named figure is checked against its runs once they are all read
    // (check_references): it depends on what each run is.
    c.figure = measure.text("figure", false);
    bool needs_lock = false;
    if (c.figure.empty()) {
        const std::string metric = measure.text("metric");
        const auto parsed = parse_lesson_metric(metric);
        if (!parsed) {
            std::vector<std::string_view> names;
            for (const LessonMetricInfo& info : lesson_metrics())
                names.push_back(info.name);
            throw_field_error(measure.at("metric"), "'" + metric + "' is not a metric; allowed: " + joined(names));
        }
        c.metric = *parsed;
        needs_lock = lesson_metric_info(c.metric).needs_lock;
    }
    c.lock = measure.text("lock", needs_lock);
    if (!c.lock.empty() && !needs_lock)
        throw_field_error(measure.at("lock"), "is only for a lock metric");
    c.run = measure.text("run");
    c.over = measure.text("over", false);
    c.over_lock = measure.text("over_lock", false);
    if (!c.over_lock.empty() && (c.over.empty() || !needs_lock))
        throw_field_error(measure.at("over_lock"), "is only for a lock metric divided by another run's");
    c.repeats = unsigned(m.integer("repeats", 3, 1, 100));
    c.min_cpus = unsigned(m.integer("min_cpus", 1, 1, 4096));

    const Member rule(m.need("rule"), m.at("rule"), { "at_least", "at_most", "max_spread" });
    if (bool(rule.find("at_least")) == bool(rule.find("at_most")))
        throw_field_error(m.at("rule"), "needs one of at_least and at_most");
    c.at_most = rule.find("at_most") != nullptr;
    c.threshold = rule.number(c.at_most ? "at_most" : "at_least", 1, 0, 1e18);
    c.max_spread = rule.number("max_spread", 0.5, 0, 100);
    c.race = m.flag("race");
    // Not seeing a race proves nothing, which only matters to a claim that
    // it happens: one that it never does is simply held when none is seen.
    if (c.race && (c.at_most || !c.over.empty()))
        throw_field_error(m.at("race"), "is only for a count that must reach at_least (a race that happens)");
    return c;
}

/// A probe run's parameters, plain and in the quick form, checked against
/// its probe's.
void check_probe_run(const LessonRun& run, const std::string& path)
{
    const LessonProbe* probe = find_lesson_probe(run.probe);
    if (!probe) {
        std::vector<std::string_view> names;
        for (const LessonProbe& p : lesson_probes())
            names.push_back(p.name);
        throw_field_error(path + ".probe", "'" + run.probe + "' is not a probe; allowed: " + joined(names));
    }
    std::vector<std::string> quick = run.set;
    quick.insert(quick.end(), run.quick.begin(), run.quick.end());
    try {
        probe_args(*probe, run.set, path + ".set");
        probe_args(*probe, quick, path + ".quick");
    } catch (const LessonError& e) {
        throw FieldError(e.field(), e.what(), e.what());
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

/// What refers to what: runs named once, named runs that exist, probes and
/// their parameters, steps that fit their runs, and figures their runs have.
void check_references(Lesson& lesson)
{
    for (std::size_t i = 0; i < lesson.runs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (lesson.runs[i].name == lesson.runs[j].name)
                throw_field_error(
                    "runs[" + std::to_string(i) + "].name", "'" + lesson.runs[i].name + "' names another run too");
    auto check_run = [&](const std::string& name, const std::string& path) {
        if (!lesson.find_run(name)) {
            std::vector<std::string_view> names;
            for (const LessonRun& r : lesson.runs)
                names.push_back(r.name);
            throw_field_error(path, "'" + name + "' is not one of the lesson's runs: " + joined(names));
        }
    };
    for (std::size_t i = 0; i < lesson.runs.size(); ++i)
        if (lesson.runs[i].is_probe())
            check_probe_run(lesson.runs[i], "runs[" + std::to_string(i) + "]");
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        const std::string at = "steps[" + std::to_string(i) + "].";
        check_run(s.run, at + "run");
        const LessonRun& run = *lesson.find_run(s.run);
        const bool probe_run = run.is_probe();
        // A probe measures once and shows its figures, or its own view walks
        // the run: there is nothing to pace, outline or pause.
        const std::string probe_view = probe_run ? find_lesson_probe(run.probe)->view : std::string();
        if (probe_run && s.view != "probe" && s.view != probe_view)
            throw_field_error(at + "view",
                "must be \"probe\"" + (probe_view.empty() ? std::string() : " or \"" + probe_view + "\"") + ": run '"
                    + s.run + "' is a probe's");
        const bool probes_view = s.view == "probe"
            || std::any_of(lesson_probes().begin(), lesson_probes().end(),
                [&](const LessonProbe& p) { return !p.view.empty() && p.view == s.view; });
        if (!probe_run && probes_view)
            throw_field_error(at + "view", "\"" + s.view + "\" shows a probe run; run '" + s.run + "' is a scenario's");
        if (probe_run
            && (!s.set.empty() || s.ops_per_second != 0 || s.hold_stretch_ns != 0
                || s.highlight.kind != LessonHighlight::Kind::None || s.pause.kind != LessonPause::Kind::None))
            throw_field_error(
                at + "run", "a step on a probe run ('" + s.run + "') takes no set, pacing, highlight or pause_when");
    }
    for (std::size_t i = 0; i < lesson.claims.size(); ++i) {
        LessonClaim& c = lesson.claims[i];
        const std::string at = "claims[" + std::to_string(i) + "].measure.";
        check_run(c.run, at + "run");
        if (!c.over.empty()) {
            check_run(c.over, at + "over");
            if (c.over == c.run)
                throw_field_error(at + "over", "divides the run by itself");
        }
        if (c.figure.empty()) {
            for (const std::string* name : { &c.run, &c.over })
                if (!name->empty() && lesson.find_run(*name)->is_probe())
                    throw_field_error(at + (name == &c.run ? "run" : "over"),
                        "run '" + *name + "' is a probe's: its claims read a figure, not a metric");
            continue;
        }
        c.figure_unit = figure_unit(*lesson.find_run(c.run), c.figure, at + "figure");
        if (!c.over.empty() && figure_unit(*lesson.find_run(c.over), c.figure, at + "figure") != c.figure_unit)
            throw_field_error(
                at + "figure", "'" + c.figure + "' has different units in runs '" + c.run + "' and '" + c.over + "'");
    }
}

Lesson read_lesson(const json::Value& doc, const std::string& origin)
{
    const Member m(doc, "",
        { "version", "title", "thread", "citation", "question", "summary", "arguments", "runs", "steps", "claims",
            "quick" });
    const std::uint64_t version = m.integer("version", 0, 0, ~std::uint64_t(0));
    if (!m.find("version"))
        throw_field_error("version", "is required (this build reads version " + std::to_string(Lesson::kVersion) + ")");
    if (version != Lesson::kVersion)
        throw_field_error("version",
            "this build reads version " + std::to_string(Lesson::kVersion) + ", got " + std::to_string(version));
    Lesson l;
    l.name = std::filesystem::path(origin).stem().string();
    l.title = m.text("title");
    l.thread = m.text("thread");
    l.citation = m.text("citation");
    l.question = m.text("question");
    l.summary = m.text("summary");
    m.each("arguments", true, [&](const json::Value& v, const std::string& path) {
        const Member a(v, path, { "who", "said", "quoted" });
        l.arguments.push_back({ a.text("who"), a.text("said"), a.flag("quoted") });
    });
    m.each("runs", true, [&](const json::Value& v, const std::string& path) {
        const Member r(v, path, { "name", "scenario", "probe", "set", "quick", "label" });
        // Named at "probe", the member a run without its scenario lacks: so
        // that `validate`, having taken out an unknown probe, does not
        // report the run a second time.
        if (bool(r.find("scenario")) == bool(r.find("probe")))
            throw_field_error(r.at("probe"), "a run needs one of scenario and probe");
        LessonRun run;
        run.name = r.text("name");
        run.scenario = r.text("scenario", r.find("scenario") != nullptr);
        run.probe = r.text("probe", r.find("probe") != nullptr);
        run.set = r.overrides("set");
        run.quick = r.overrides("quick");
        if (!run.quick.empty() && !run.is_probe())
            throw_field_error(r.at("quick"), "is for a probe run; a scenario run takes the lesson's quick overrides");
        run.label = r.text("label");
        l.runs.push_back(std::move(run));
    });
    m.each(
        "steps", true, [&](const json::Value& v, const std::string& path) { l.steps.push_back(read_step(v, path)); });
    m.each("claims", true,
        [&](const json::Value& v, const std::string& path) { l.claims.push_back(read_claim(v, path)); });
    l.quick = m.overrides("quick");
    check_references(l);
    return l;
}

} // namespace

Lesson parse_lesson(std::string_view text, const std::string& origin)
{
    json::Value doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        throw LessonError(
            "", origin + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
    }
    try {
        return read_lesson(doc, origin);
    } catch (const FieldError& e) {
        throw LessonError(e.field(), origin + ": " + e.what());
    }
}

} // namespace pcl
