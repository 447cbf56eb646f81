#include "lib/json_path.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace pcl::json {

namespace {

/// One step of a path: a member's name or an element's index.
using Step = std::variant<std::string, std::size_t>;

std::optional<std::vector<Step>> split(std::string_view path)
{
    // name ('.' name | '[' digits ']')*, or an index first; a dot is always
    // followed by a name, an index by the end, a dot or another index.
    std::vector<Step> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            const std::size_t close = path.find(']', i);
            if (close == std::string_view::npos || close == i + 1)
                return std::nullopt;
            std::size_t index = 0;
            const auto [end, ec] = std::from_chars(path.data() + i + 1, path.data() + close, index);
            if (ec != std::errc() || end != path.data() + close)
                return std::nullopt;
            steps.emplace_back(index);
            i = close + 1;
        } else {
            const std::size_t stop = std::min(path.find_first_of(".[", i), path.size());
            if (stop == i)
                return std::nullopt; // an empty name: "a..b", ".a"
            steps.emplace_back(std::string(path.substr(i, stop - i)));
            i = stop;
        }
        if (i < path.size() && path[i] == '.') {
            if (++i == path.size())
                return std::nullopt; // "a."
        } else if (i < path.size() && path[i] != '[') {
            return std::nullopt; // "a[0]b"
        }
    }
    if (steps.empty())
        return std::nullopt;
    return steps;
}

/// The value @steps[0, n) lead to from @doc, or null.
template <class V> V* walk(V& doc, const std::vector<Step>& steps, std::size_t n)
{
    V* at = &doc;
    for (std::size_t s = 0; s < n && at; ++s) {
        if (const auto* name = std::get_if<std::string>(&steps[s])) {
            at = at->find(*name);
        } else {
            const std::size_t index = std::get<std::size_t>(steps[s]);
            at = at->is_array() && index < at->as_array().size() ? &at->as_array()[index] : nullptr;
        }
    }
    return at;
}

} // namespace

const Value* find_path(const Value& doc, std::string_view path)
{
    const std::optional<std::vector<Step>> steps = split(path);
    return steps ? walk(doc, *steps, steps->size()) : nullptr;
}

namespace {

/// Whether @last can name something in @v: a member in an object, an
/// element in an array (set_path adds a member, never an element).
bool holds(const Value& v, const Step& last)
{
    if (std::holds_alternative<std::string>(last))
        return v.is_object();
    return v.is_array() && std::get<std::size_t>(last) < v.as_array().size();
}

/// What holds the value @path names, and the last step to it: an object
/// with a member's name, or an array with the index of one of its elements.
struct Parent {
    Value* value;
    Step last;
};

std::optional<Parent> parent_of(Value& doc, std::string_view path)
{
    std::optional<std::vector<Step>> steps = split(path);
    if (!steps)
        return std::nullopt;
    Value* at = walk(doc, *steps, steps->size() - 1);
    if (!at || !holds(*at, steps->back()))
        return std::nullopt;
    return Parent { at, std::move(steps->back()) };
}

} // namespace

bool set_path(Value& doc, std::string_view path, Value value)
{
    const std::optional<Parent> p = parent_of(doc, path);
    if (!p)
        return false;
    if (const auto* name = std::get_if<std::string>(&p->last))
        p->value->set(*name, std::move(value));
    else
        p->value->as_array()[std::get<std::size_t>(p->last)] = std::move(value);
    return true;
}

bool remove_path(Value& doc, std::string_view path)
{
    const std::optional<Parent> p = parent_of(doc, path);
    if (!p)
        return false;
    if (const auto* name = std::get_if<std::string>(&p->last)) {
        Object& members = p->value->as_object();
        const auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == *name; });
        if (it == members.end())
            return false;
        members.erase(it);
        return true;
    }
    Array& elements = p->value->as_array();
    elements.erase(elements.begin() + std::ptrdiff_t(std::get<std::size_t>(p->last)));
    return true;
}

} // namespace pcl::json
