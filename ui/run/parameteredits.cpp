// The Parameters panel's values: the run's scenario, the pending one, and
// the attempts, each checked as a scenario file is.
#include "run/parameteredits.h"

#include <QCoreApplication>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace pcl::ui {

namespace {

/// Between a preset's title and the changes made to it.
const QString kChangedMark = QStringLiteral(" (changed: ");

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::ParametersPanel", text);
}

} // namespace

bool sameValue(const json::Value& a, const json::Value& b)
{
    if (a.is_integer() && b.is_integer()) {
        const bool an = a.type() == json::Value::Type::Int && a.as_int() < 0;
        const bool bn = b.type() == json::Value::Type::Int && b.as_int() < 0;
        if (an || bn)
            return an && bn && a.as_int() == b.as_int();
        return a.as_uint() == b.as_uint();
    }
    if (a.is_number() && b.is_number())
        return a.as_double() == b.as_double();
    return a == b;
}

ParameterEdits::ParameterEdits(json::Value base)
    : base_(std::move(base))
    , pending_(base_)
{
}

void ParameterEdits::setBase(json::Value base)
{
    base_ = std::move(base);
    discard();
}

void ParameterEdits::setLive(const std::string& path, const json::Value& value)
{
    setValueAt(base_, path, value);
    setValueAt(pending_, path, value);
}

void ParameterEdits::setApplied(const std::string& path, const json::Value& value)
{
    setValueAt(base_, path, value);
}

json::Value ParameterEdits::candidate(const std::string& path, const json::Value& value) const
{
    json::Value doc = pending_;
    setValueAt(doc, path, value);
    if (path == "index.kind") {
        // The scheme of one kind is not a scheme of another: the new kind
        // starts from its own default rather than refusing the change.
        const std::vector<std::string> schemes = parameterChoices(*findParameter("index.scheme"), doc);
        const json::Value* scheme = valueAt(doc, "index.scheme");
        if (scheme && scheme->is_string()
            && std::find(schemes.begin(), schemes.end(), scheme->as_string()) == schemes.end())
            setValueAt(doc, "index.scheme", json::Value(""));
    }
    if (path == "device.model" && value.is_string()) {
        // A model is a preset of the device's figures: choosing one sets
        // them all (a figure changed afterwards stays changed).
        try {
            const BlockDeviceConfig preset = BlockDeviceConfig::preset(value.as_string());
            setValueAt(doc, "device.request_ns", json::Value(preset.request_ns));
            setValueAt(doc, "device.page_ns", json::Value(preset.page_ns));
            setValueAt(doc, "device.seek_ns", json::Value(preset.seek_ns));
            setValueAt(doc, "device.rotation_ns", json::Value(preset.rotation_ns));
            setValueAt(doc, "device.queue_depth", json::Value(preset.queue_depth));
            setValueAt(doc, "device.max_request_pages", json::Value(preset.max_request_pages));
            setValueAt(doc, "device.nomerges", json::Value(preset.nomerges));
        } catch (const std::invalid_argument&) {
            // Not a model: the parse names device.model.
        }
    }
    return doc;
}

bool ParameterEdits::accepts(const std::string& path, const Attempt& attempt) const
{
    if (!attempt.malformed.isEmpty())
        return false;
    try {
        scenario_from_json(candidate(path, attempt.value));
    } catch (const ScenarioError&) {
        return false;
    }
    return true;
}

void ParameterEdits::attempt(const std::string& path, Attempt attempt)
{
    attempts_[path] = std::move(attempt);
}

void ParameterEdits::forget(const std::string& path)
{
    attempts_.erase(path);
}

void ParameterEdits::settle()
{
    for (bool progress = true; progress;) {
        progress = false;
        for (auto it = attempts_.begin(); it != attempts_.end();) {
            if (!it->second.malformed.isEmpty()) {
                ++it;
                continue;
            }
            try {
                const Scenario s = scenario_from_json(candidate(it->first, it->second.value));
                pending_ = scenario_to_json(s, true);
                it = attempts_.erase(it);
                progress = true;
            } catch (const ScenarioError&) {
                ++it;
            }
        }
    }
}

ParameterEdits::Refusals ParameterEdits::refusals(
    const std::function<const ParameterSpec*(const std::string&)>& shown) const
{
    Refusals r;
    for (const auto& [path, attempt] : attempts_) {
        r.refused.insert(path);
        if (!attempt.malformed.isEmpty()) {
            r.messages[path] << attempt.malformed;
            continue;
        }
        try {
            scenario_from_json(candidate(path, attempt.value));
        } catch (const ScenarioError& e) {
            const QString what = QString::fromUtf8(e.what());
            const ParameterSpec* named = shown(e.field());
            if (!named || e.field() == path) {
                r.messages[path] << what;
                continue;
            }
            // A cross-field rule: the reason goes under the field it names,
            // and the field that was typed in says why it is not applied.
            r.messages[e.field()] << what;
            r.refused.insert(e.field());
            r.messages[path]
                << tr("Not applied: it conflicts with %1 (%2).").arg(named->label, QString::fromStdString(e.field()));
        }
    }
    return r;
}

void ParameterEdits::discard()
{
    attempts_.clear();
    pending_ = base_;
}

QStringList ParameterEdits::pendingPaths() const
{
    QStringList paths;
    for (const ParameterSpec& spec : parameterSchema()) {
        if (spec.apply != ParameterSpec::Apply::Restart)
            continue;
        const json::Value* now = valueAt(base_, spec.path);
        const json::Value* next = valueAt(pending_, spec.path);
        if (now && next && !sameValue(*now, *next))
            paths << QString::fromStdString(spec.path);
    }
    return paths;
}

QStringList ParameterEdits::refusedPaths() const
{
    QStringList paths;
    for (const auto& [path, attempt] : attempts_)
        paths << QString::fromStdString(path);
    return paths;
}

Scenario ParameterEdits::pendingScenario() const
{
    Scenario s = scenario_from_json(pending_);
    // A preset changed here is no longer what its title names ("2002: a
    // radix tree per file" run on a skip list): unless the title was edited
    // too, it says what changed, so that the saved file, the report and
    // every chart caption do not name what the run is not.
    const QStringList paths = pendingPaths();
    if (paths.contains(QStringLiteral("title")))
        return s;
    QString title = QString::fromStdString(s.title);
    QStringList changes;
    if (const qsizetype at = title.indexOf(kChangedMark); at >= 0 && title.endsWith(QLatin1Char(')'))) {
        changes = title.mid(at + kChangedMark.size(), title.size() - at - kChangedMark.size() - 1)
                      .split(QStringLiteral("; "));
        title.truncate(at);
    }
    bool any = false;
    for (const QString& path : paths) {
        const ParameterSpec* spec = findParameter(path.toStdString());
        if (!spec || path == QLatin1String("description"))
            continue;
        const json::Value& v = *valueAt(pending_, spec->path);
        const QString value = spec->type == ParameterSpec::Type::Choice && v.is_string()
            ? choiceText(*spec, v.as_string(), pending_)
            : displayText(v) + (spec->unit.isEmpty() ? QString() : QLatin1Char(' ') + spec->unit);
        // A field changed again replaces what an earlier change said of it.
        changes.removeIf([&](const QString& c) { return c.startsWith(spec->label + QStringLiteral(": ")); });
        changes << spec->label + QStringLiteral(": ") + value;
        any = true;
    }
    if (any)
        s.title = (title + kChangedMark + changes.join(QStringLiteral("; ")) + QLatin1Char(')')).toStdString();
    return s;
}

} // namespace pcl::ui
