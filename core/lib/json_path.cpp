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

/// What holds the value @path names, and the last step to it.
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
    if (!at)
        return std::nullopt;
    return Parent { at, std::move(steps->back()) };
}

} // namespace

bool set_path(Value& doc, std::string_view path, Value value)
{
    const std::optional<Parent> p = parent_of(doc, path);
    if (!p)
        return false;
    if (const auto* name = std::get_if<std::string>(&p->last)) {
        if (!p->value->is_object())
            return false;
        p->value->set(*name, std::move(value));
        return true;
    }
    const std::size_t index = std::get<std::size_t>(p->last);
    if (!p->value->is_array() || index >= p->value->as_array().size())
        return false;
    p->value->as_array()[index] = std::move(value);
    return true;
}

bool remove_path(Value& doc, std::string_view path)
{
    const std::optional<Parent> p = parent_of(doc, path);
    if (!p)
        return false;
    if (const auto* name = std::get_if<std::string>(&p->last)) {
        if (!p->value->is_object())
            return false;
        Object& members = p->value->as_object();
        const auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == *name; });
        if (it == members.end())
            return false;
        members.erase(it);
        return true;
    }
    const std::size_t index = std::get<std::size_t>(p->last);
    if (!p->value->is_array() || index >= p->value->as_array().size())
        return false;
    Array& elements = p->value->as_array();
    elements.erase(elements.begin() + std::ptrdiff_t(index));
    return true;
}

} // namespace pcl::json
