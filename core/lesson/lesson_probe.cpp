#include "lesson/lesson_probe.h"

#include "lesson/lesson.h"
#include "lib/report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace pcl {

const std::string& ProbeArgs::text(std::string_view name) const
{
    const auto it = values_.find(std::string(name));
    if (it == values_.end())
        throw std::logic_error("probe parameter '" + std::string(name) + "' was not declared");
    return it->second;
}

double ProbeArgs::number(std::string_view name) const
{
    const std::string& s = text(name);
    double d = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || end != s.data() + s.size())
        throw std::logic_error("probe parameter '" + std::string(name) + "' is not a number: " + s);
    return d;
}

const ProbeFigure* LessonProbe::find_figure(std::string_view figure) const
{
    for (const ProbeFigure& f : figures)
        if (f.name == figure)
            return &f;
    return nullptr;
}

const std::vector<LessonProbe>& lesson_probes()
{
    static const std::vector<LessonProbe> probes = [] {
        std::vector<LessonProbe> v = {
            index_lookup_probe(),
            index_memory_probe(),
            hash_chains_probe(),
            move_pages_probe(),
            torn_pte_probe(),
        };
        std::sort(v.begin(), v.end(), [](const LessonProbe& a, const LessonProbe& b) { return a.name < b.name; });
        return v;
    }();
    return probes;
}

const LessonProbe* find_lesson_probe(std::string_view name)
{
    for (const LessonProbe& p : lesson_probes())
        if (p.name == name)
            return &p;
    return nullptr;
}

namespace {

std::string names_of(const LessonProbe& probe)
{
    std::string s;
    for (const ProbeParam& p : probe.params)
        s += (s.empty() ? "" : ", ") + p.name;
    return s.empty() ? "none" : s;
}

std::string choices_of(const ProbeParam& p)
{
    std::string s;
    for (const std::string& c : p.choices)
        s += (s.empty() ? "" : ", ") + c;
    return s;
}

} // namespace

ProbeArgs probe_args(const LessonProbe& probe, const std::vector<std::string>& set, const std::string& path)
{
    std::map<std::string, std::string> values;
    for (const ProbeParam& p : probe.params)
        values[p.name] = p.fallback;
    for (const std::string& item : set) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw LessonError(path, path + ": '" + item + "' is not name=value");
        const std::string name = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        const auto p = std::find_if(
            probe.params.begin(), probe.params.end(), [&](const ProbeParam& q) { return q.name == name; });
        if (p == probe.params.end())
            throw LessonError(path,
                path + ": '" + name + "' is not a parameter of the " + probe.name
                    + " probe; its parameters: " + names_of(probe));
        const std::string where = path + ": " + name;
        if (!p->choices.empty()) {
            if (std::find(p->choices.begin(), p->choices.end(), value) == p->choices.end())
                throw LessonError(path, where + ": '" + value + "' is not one of " + choices_of(*p));
        } else {
            double d = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), d);
            if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(d))
                throw LessonError(path, where + ": '" + value + "' is not a number");
            if (p->integral && d != std::floor(d))
                throw LessonError(path, where + ": must be a whole number, got " + value);
            if (d < p->min || d > p->max)
                throw LessonError(path,
                    where + ": must be in [" + significant(p->min) + ", " + significant(p->max) + "], got " + value);
        }
        values[name] = value;
    }
    return ProbeArgs(std::move(values));
}

} // namespace pcl
