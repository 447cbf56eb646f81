#include "cli_sweep_plan.h"

#include "lib/arg_parser.h"

#include <algorithm>
#include <stdexcept>

namespace pcl::cli {

std::size_t SweepPlan::cells() const
{
    std::size_t n = 1;
    for (const SweepAxis& a : axes)
        n *= a.values.size();
    return n;
}

std::vector<std::string> SweepPlan::varied_fields() const
{
    std::vector<std::string> fields;
    for (const SweepAxis& a : axes)
        fields.push_back(a.field);
    return fields;
}

std::string SweepPlan::run_dir(std::size_t k) const
{
    if (version == 1)
        return "cell-" + std::to_string(k);
    return "cell-" + std::to_string(k / repeat) + "/repeat-" + std::to_string(k % repeat);
}

std::vector<std::size_t> SweepPlan::coordinates(std::size_t cell) const
{
    std::vector<std::size_t> c(axes.size());
    for (std::size_t i = axes.size(); i-- > 0;) {
        c[i] = cell % axes[i].values.size();
        cell /= axes[i].values.size();
    }
    return c;
}

std::vector<std::string> SweepPlan::assignments(std::size_t cell) const
{
    std::vector<std::string> a;
    const std::vector<std::size_t> c = coordinates(cell);
    for (std::size_t i = 0; i < axes.size(); ++i)
        a.push_back(axes[i].field + "=" + axes[i].values[c[i]]);
    return a;
}

std::string SweepPlan::describe_cell(std::size_t cell) const
{
    std::string s;
    for (const std::string& a : assignments(cell))
        s += (s.empty() ? "" : ", ") + a;
    return s;
}

SweepRun run_of(const SweepPlan& plan, std::size_t k)
{
    SweepRun r;
    r.index = k;
    r.cell = k / plan.repeat;
    r.repeat = unsigned(k % plan.repeat);
    return r;
}

void take_figures(SweepRun& run, const json::Value& figures)
{
    if (!figures.is_object())
        return;
    for (const auto& [name, value] : figures.as_object())
        if (value.is_number())
            run.figures.emplace_back(name, value.as_double());
}

SweepAxis parse_vary(const std::string& text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ArgError("--vary: expected FIELD=v1,v2,..., got '" + text + "'");
    SweepAxis a { text.substr(0, eq), {} };
    const std::string list = text.substr(eq + 1);
    std::size_t from = 0;
    while (true) {
        const std::size_t comma = list.find(',', from);
        const std::string v = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        if (v.empty())
            throw ArgError("--vary " + a.field + ": an empty value in '" + list + "' (values are separated by commas)");
        if (std::find(a.values.begin(), a.values.end(), v) != a.values.end())
            throw ArgError("--vary " + a.field + ": the value '" + v + "' is given twice");
        a.values.push_back(v);
        if (comma == std::string::npos)
            break;
        from = comma + 1;
    }
    return a;
}

json::Value plan_to_json(const SweepPlan& p)
{
    json::Array sets, axes, runs;
    for (const std::string& s : p.sets)
        sets.push_back(s);
    for (const SweepAxis& a : p.axes) {
        json::Array values;
        for (const std::string& v : a.values)
            values.push_back(v);
        axes.push_back(json::Object { { "field", a.field }, { "values", std::move(values) } });
    }
    for (std::size_t k = 0; k < p.runs(); ++k)
        runs.push_back(json::Object { { "run", std::uint64_t(k) }, { "cell", std::uint64_t(k / p.repeat) },
            { "repeat", std::uint64_t(k % p.repeat) }, { "dir", p.run_dir(k) },
            { "parameters", p.describe_cell(k / p.repeat) } });
    return json::Object { { "version", p.version }, { "scenario", p.scenario }, { "name", p.name },
        { "set", std::move(sets) }, { "vary", std::move(axes) }, { "repeat", std::uint64_t(p.repeat) },
        { "figure", p.figure }, { "runs", std::move(runs) }, { "provenance", provenance_members(make_provenance()) } };
}

SweepPlan plan_from_json(const json::Value& doc, const std::string& origin)
{
    auto bad = [&](const std::string& field, const std::string& what) {
        return std::runtime_error(origin + ": " + field + ": " + what);
    };
    auto member = [&](const char* name, bool (json::Value::*is)() const, const char* type) -> const json::Value& {
        const json::Value* v = doc.find(name);
        if (!v)
            throw bad(name, "missing");
        if (!((*v).*is)())
            throw bad(name, std::string("must be ") + type + ", got " + json::Value::type_name(v->type()));
        return *v;
    };
    if (!doc.is_object())
        throw std::runtime_error(origin + ": not a sweep description (a JSON object)");
    const std::int64_t version = member("version", &json::Value::is_integer, "an integer").as_int();
    if (version != 1 && version != 2)
        throw bad("version", "this build reads versions 1 and 2");
    SweepPlan p;
    p.version = int(version);
    p.scenario = member("scenario", &json::Value::is_string, "a string").as_string();
    p.name = member("name", &json::Value::is_string, "a string").as_string();
    p.figure = member("figure", &json::Value::is_string, "a string").as_string();
    const json::Value& repeat = member("repeat", &json::Value::is_integer, "an integer");
    if (repeat.as_int() < 1 || repeat.as_int() > 1000)
        throw bad("repeat", "must be between 1 and 1000");
    p.repeat = unsigned(repeat.as_int());
    for (const json::Value& s : member("set", &json::Value::is_array, "an array").as_array())
        p.sets.push_back(s.is_string() ? s.as_string() : throw bad("set", "every element must be a string"));
    const json::Array& vary = member("vary", &json::Value::is_array, "an array").as_array();
    if (vary.empty())
        throw bad("vary", "must name one field or more");
    for (std::size_t i = 0; i < vary.size(); ++i) {
        const std::string at = "vary[" + std::to_string(i) + "]";
        const json::Value* field = vary[i].find("field");
        const json::Value* values = vary[i].find("values");
        if (!field || !field->is_string() || !values || !values->is_array() || values->as_array().empty())
            throw bad(at, "must be {\"field\": NAME, \"values\": [V, ...]}");
        SweepAxis a { field->as_string(), {} };
        for (const json::Value& v : values->as_array())
            a.values.push_back(v.is_string() ? v.as_string() : throw bad(at + ".values", "must be strings"));
        p.axes.push_back(std::move(a));
    }
    if (p.runs() > kMaxSweepRuns)
        throw bad("vary", "more than " + std::to_string(kMaxSweepRuns) + " runs");
    return p;
}

} // namespace pcl::cli
