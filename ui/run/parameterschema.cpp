// The rows are the field tables of the scenario format (scenario_fields.h),
// so the panel, the file format and its documentation describe each field
// the same way.
#include "run/parameterschema.h"

#include "index/index_factory.h"
#include "run/simulation.h"
#include "sched/machine_profiles.h"
#include "sim/engine_fields.h"
#include "sim/scenario_fields.h"

#include <algorithm>
#include <thread>

namespace pcl::ui {

namespace {

using Type = ParameterSpec::Type;
using Apply = ParameterSpec::Apply;

const QString kWorkload = QStringLiteral("Workload");
const QString kIndex = QStringLiteral("Index");
const QString kMemory = QStringLiteral("Memory & page table");
const QString kDisk = QStringLiteral("Disk");
const QString kFaults = QStringLiteral("Faults");
const QString kWriteback = QStringLiteral("Writeback");
const QString kPacing = QStringLiteral("Pacing");
const QString kEvents = QStringLiteral("Events");
const QString kRun = QStringLiteral("Run");
const QString kTrace = QStringLiteral("Trace replay");
const QString kMachine = QStringLiteral("Machine");
const QString kExplore = QStringLiteral("Looking for races");

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

/// The section of the panel a field is in: its object's, and for the
/// document's own fields the engine's memory and page table, the run's
/// description, or (the readahead policy, which reads up to the device's
/// readahead maximum) the disk.
QString groupOf(const ScenarioField& f)
{
    static const std::pair<std::string_view, QString> kObjects[] = { { "workload", kWorkload }, { "index", kIndex },
        { "device", kDisk }, { "fault", kFaults }, { "writeback", kWriteback }, { "reclaim", kMemory },
        { "pacing", kPacing }, { "events", kEvents }, { "trace", kTrace }, { "machine", kMachine } };
    // How a modelled machine orders its CPUs: a search for races, apart
    // from what the machine is.
    if (f.object == "machine"
        && (f.info->name == "schedule" || f.info->name.starts_with("pct_") || f.info->name == "schedule_seed"))
        return kExplore;
    for (const auto& [object, group] : kObjects)
        if (f.object == object)
            return group;
    if (f.path == "readahead")
        return kDisk;
    return engine_fields().find(f.info->name) ? kMemory : kRun;
}

/// The allowed values in words: the format's, without its markup.
QString allowedWords(const FieldInfo& info)
{
    if (info.type == FieldType::Boolean)
        return QStringLiteral("on or off");
    if (!info.choices.empty()) {
        QStringList words;
        for (std::string_view c : info.choices)
            words << fromView(c);
        return words.join(QStringLiteral(", "));
    }
    if (info.type == FieldType::String && info.allowed == "any")
        return QStringLiteral("any text");
    QString words = fromView(info.allowed);
    words.remove(QLatin1Char('`'));
    if (info.open && words.startsWith(QLatin1Char('(')))
        return QStringLiteral("between %1, both excluded")
            .arg(words.mid(1, words.size() - 2).replace(QStringLiteral(", "), QStringLiteral(" and ")));
    return words.replace(QStringLiteral(".."), QStringLiteral(" to "));
}

ParameterSpec fromTable(const ScenarioField& f)
{
    const FieldInfo& info = *f.info;
    ParameterSpec p;
    p.path = f.path;
    p.group = groupOf(f);
    p.label = fromView(info.label);
    p.unit = fromView(info.unit);
    p.allowed = allowedWords(info);
    p.meaning = fromView(info.meaning);
    p.apply = info.apply == FieldApply::Live ? Apply::Live
        : info.apply == FieldApply::Fixed    ? Apply::Fixed
                                             : Apply::Restart;
    switch (info.type) {
    case FieldType::Integer:
        p.type = Type::Int;
        p.minInt = info.min_int;
        p.maxInt = info.max_int;
        p.powerOfTwo = info.power_of_two;
        break;
    case FieldType::Number:
        p.type = Type::Double;
        // A fraction steps by twentieths, anything larger by ones; an open
        // range stops a step short of its ends.
        p.step = info.max_real - info.min_real <= 1 ? 0.05 : 1;
        p.minReal = info.open ? info.min_real + p.step : info.min_real;
        p.maxReal = info.open ? info.max_real - p.step : info.max_real;
        break;
    case FieldType::Boolean:
        p.type = Type::Bool;
        break;
    case FieldType::String:
        p.type = Type::String;
        // The machine is chosen from those there are, as in the toolbar:
        // this computer, or a modelled one with its CPUs.
        if (f.path == "machine.profile") {
            p.type = Type::Choice;
            p.choices.push_back(std::string(sched::kHostMachine));
            for (const std::string& name : sched::machine_profile_names())
                if (name != sched::kHostMachine)
                    p.choices.push_back(name);
        }
        break;
    case FieldType::Choice:
        p.type = Type::Choice;
        p.choices.assign(info.choices.begin(), info.choices.end());
        break;
    }
    p.defaultValue = f.default_value;
    return p;
}

std::vector<ParameterSpec> build()
{
    // A field of the document shown in an object's section (the readahead
    // policy among the disk's figures) comes after the object's own.
    std::vector<ParameterSpec> s, borrowed;
    for (const ScenarioField& f : scenario_fields()) {
        ParameterSpec p = fromTable(f);
        const bool among_object = f.object.empty() && p.group != kRun && p.group != kMemory;
        (among_object ? borrowed : s).push_back(std::move(p));
    }
    for (ParameterSpec& p : borrowed)
        s.push_back(std::move(p));
    return s;
}

QString escaped(const QString& s)
{
    return s.toHtmlEscaped();
}

} // namespace

QString ParameterSpec::toolTip() const
{
    QString defaultText;
    if (type == Type::Bool)
        defaultText = defaultValue.is_bool() && defaultValue.as_bool() ? QStringLiteral("on") : QStringLiteral("off");
    else if (type == Type::String)
        defaultText = defaultValue.is_string() && defaultValue.as_string().empty() ? QStringLiteral("empty")
                                                                                   : displayText(defaultValue);
    else if (type == Type::Choice && defaultValue.is_string() && defaultValue.as_string().empty())
        defaultText = QStringLiteral("the kind's default");
    else
        defaultText = displayText(defaultValue) + (unit.isEmpty() ? QString() : QStringLiteral(" ") + unit);
    const QString when = apply == Apply::Live ? QStringLiteral("Applies at once, while the run goes on.")
        : apply == Apply::Restart             ? QStringLiteral("Applies to the next run (restart).")
                                              : QStringLiteral("Fixed.");
    return QStringLiteral("<p><b>%1</b> &nbsp;<code>%2</code></p><p>%3</p><p>Allowed: %4<br>Default: %5<br>%6</p>")
        .arg(escaped(label), QString::fromStdString(path), escaped(meaning), escaped(allowed), escaped(defaultText),
            when);
}

const std::vector<ParameterSpec>& parameterSchema()
{
    static const std::vector<ParameterSpec> schema = build();
    return schema;
}

const ParameterSpec* findParameter(const std::string& path)
{
    const auto& schema = parameterSchema();
    const auto it = std::find_if(schema.begin(), schema.end(), [&](const ParameterSpec& p) { return p.path == path; });
    return it == schema.end() ? nullptr : &*it;
}

QStringList parameterGroups()
{
    return { kMachine, kWorkload, kTrace, kIndex, kMemory, kDisk, kFaults, kWriteback, kPacing, kEvents, kRun,
        kExplore };
}

std::vector<std::string> parameterChoices(const ParameterSpec& spec, const json::Value& doc)
{
    if (spec.path != "index.scheme")
        return spec.choices;
    std::vector<std::string> values { "" };
    const json::Value* kind = valueAt(doc, "index.kind");
    // An unknown kind has no schemes; the kind's own field says why.
    if (const std::optional<IndexKind> k
        = kind && kind->is_string() ? parse_index_kind(kind->as_string()) : std::nullopt)
        for (auto& scheme : index_schemes(*k))
            values.push_back(std::move(scheme));
    return values;
}

QString choiceText(const ParameterSpec& spec, const std::string& value, const json::Value& doc)
{
    if (spec.path == "index.scheme" && value.empty()) {
        // The defaults of RadixTree, HashIndex and SkipList for an empty scheme.
        const json::Value* kind = valueAt(doc, "index.kind");
        const std::optional<IndexKind> k
            = kind && kind->is_string() ? parse_index_kind(kind->as_string()) : std::nullopt;
        const char* name = k == IndexKind::Radix ? "rcu"
            : k == IndexKind::Hash               ? "global"
            : k == IndexKind::SkipList           ? "pernode"
                                                 : nullptr;
        return name ? QStringLiteral("default (%1)").arg(QLatin1String(name)) : QStringLiteral("default");
    }
    if (spec.path == "machine.profile") {
        if (value == sched::kHostMachine)
            return QStringLiteral("This computer (%1 cores)").arg(std::thread::hardware_concurrency());
        try {
            const sched::MachineProfile p = sched::load_machine_profile(value);
            return QStringLiteral("%1 · %2").arg(
                Simulation::shortMachineTitle(p.title), Simulation::cpusText(p.max_cpus));
        } catch (const std::exception&) {
            return QString::fromStdString(value); // a broken profile: running it says what is wrong
        }
    }
    return QString::fromStdString(value);
}

const json::Value* valueAt(const json::Value& doc, const std::string& path)
{
    const json::Value* v = &doc;
    std::size_t from = 0;
    while (v) {
        const std::size_t dot = path.find('.', from);
        v = v->find(std::string_view(path).substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos)
            return v;
        from = dot + 1;
    }
    return nullptr;
}

void setValueAt(json::Value& doc, const std::string& path, json::Value value)
{
    const std::size_t dot = path.rfind('.');
    if (dot == std::string::npos) {
        doc.set(path, std::move(value));
        return;
    }
    json::Value* parent = &doc;
    std::size_t from = 0;
    while (from < dot) {
        const std::size_t next = path.find('.', from);
        parent = parent->find(std::string_view(path).substr(from, next - from));
        if (!parent)
            throw std::invalid_argument(path + ": no such field");
        from = next + 1;
    }
    parent->set(std::string_view(path).substr(dot + 1), std::move(value));
}

std::vector<std::string> leafPaths(const json::Value& doc)
{
    std::vector<std::string> paths;
    const auto walk = [&](const auto& self, const json::Value& v, const std::string& prefix) -> void {
        if (!v.is_object()) {
            paths.push_back(prefix);
            return;
        }
        for (const auto& [key, member] : v.as_object())
            self(self, member, prefix.empty() ? key : prefix + "." + key);
    };
    walk(walk, doc, std::string());
    return paths;
}

QString displayText(const json::Value& v)
{
    if (v.is_string())
        return QString::fromStdString(v.as_string());
    if (v.is_null())
        return QString();
    return QString::fromStdString(json::write(v, -1));
}

} // namespace pcl::ui
