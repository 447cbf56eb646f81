// ParameterEdits: what the Parameters panel's form holds, without its
// widgets.
//
// Two scenario documents, every field written (scenario_to_json(s, true)):
// the run's (base), and the run's with every accepted change (pending,
// always a valid scenario). And per field, the value typed that the
// scenario has not accepted, or not yet (an attempt: refused, or text that
// is no value at all). A value is accepted when scenario_from_json() takes
// the pending document with it set, plus what the change implies (a new
// index.kind resets a scheme it does not have; a device.model sets the
// device's figures), the way a hand-edited scenario file is checked.
#pragma once

#include "lib/json.h"
#include "run/parametereditor.h"
#include "run/parameterschema.h"
#include "sim/scenario.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <set>
#include <string>

namespace pcl::ui {

/// Two scenario values are the same value (an integer read as 16 is the
/// 16 a field holds whether it was signed or not).
bool sameValue(const json::Value& a, const json::Value& b);

class ParameterEdits {
public:
    /// A value typed that the scenario has not accepted (yet).
    using Attempt = EditorValue;

    /// Why the attempts are refused, under the fields the reasons name.
    struct Refusals {
        std::map<std::string, QStringList> messages; ///< by path
        std::set<std::string> refused;               ///< the fields to mark
    };

    /// No change yet to @base, a scenario document.
    explicit ParameterEdits(json::Value base);

    const json::Value& base() const { return base_; }
    const json::Value& pending() const { return pending_; }
    /// A new run's scenario: what is pending is dropped.
    void setBase(json::Value base);
    /// A live value (speed, lock stretch) set on the run: base and pending hold it.
    void setLive(const std::string& path, const json::Value& value);
    /// A live value of pending, now applied to the run: base holds it too.
    void setApplied(const std::string& path, const json::Value& value);

    /// The pending document with @path set to @value, plus what the change implies.
    json::Value candidate(const std::string& path, const json::Value& value) const;
    /// Whether the scenario would take @attempt at @path now.
    bool accepts(const std::string& path, const Attempt& attempt) const;

    void attempt(const std::string& path, Attempt attempt);
    void forget(const std::string& path);
    bool attempted(const std::string& path) const { return attempts_.count(path) > 0; }
    bool hasAttempts() const { return !attempts_.empty(); }
    /// Accepts every attempt the scenario now takes, until none more is: a
    /// value refused for its neighbour's sake (a stride beyond the file) is
    /// taken once the neighbour is fixed.
    void settle();
    /// The reasons of the attempts left; @shown gives the spec of a field
    /// the form shows (nullptr for none), so a reason about another field
    /// goes under that field.
    Refusals refusals(const std::function<const ParameterSpec*(const std::string&)>& shown) const;
    /// Drops attempts and pending changes: pending is base again.
    void discard();

    /// Parameters changed but waiting for a restart, in schema order ("workload.cpus").
    QStringList pendingPaths() const;
    /// Parameters with an attempt.
    QStringList refusedPaths() const;
    Scenario pendingScenario() const;

private:
    json::Value base_;
    json::Value pending_;
    std::map<std::string, Attempt> attempts_;
};

} // namespace pcl::ui
