// Every problem of a configuration document, from a parser that reports
// one at a time: `pagecache-lab-cli validate` lists them all, so that a
// file with three mistakes is not fixed and run three times over.
//
// The parser is run on the document; each error that names a field is
// kept, that field is taken out (so that the parser's default stands in
// for it) and the parser runs again, until the document parses or an error
// names no field (the document is not JSON, or is not an object). A field
// that comes back once taken out is a required one: it gets the value a
// valid document has there (@valid, if given; the same member of its first
// element when it has fewer) and is not reported twice; without one, the
// search ends.
#pragma once

#include "lib/json.h"
#include "lib/json_path.h"

#include <set>
#include <string>
#include <vector>

namespace pcl {

/// @path with every index made 0: "steps[3].view" -> "steps[0].view".
inline std::string first_elements(const std::string& path)
{
    std::string out;
    for (std::size_t i = 0; i < path.size(); ++i) {
        out += path[i];
        if (path[i] == '[') {
            out += '0';
            while (i + 1 < path.size() && path[i + 1] != ']')
                ++i;
        }
    }
    return out;
}

/// @parse(const json::Value&) throws @Error, whose field() is a path into
/// the document (lib/json_path.h). @valid: a document that parses, whose
/// values stand in for required fields (null: none). At most @limit
/// problems; each field is tried at most twice, so the search ends.
template <class Error, class Parse>
std::vector<Error> every_problem(
    json::Value doc, Parse&& parse, const json::Value* valid = nullptr, std::size_t limit = 64)
{
    std::vector<Error> problems;
    std::set<std::string> reported, filled;
    while (problems.size() < limit) {
        try {
            parse(doc);
            return problems;
        } catch (const Error& e) {
            const std::string& field = e.field();
            if (field.empty()) {
                problems.push_back(e);
                return problems;
            }
            // An array element is replaced rather than taken out, so that
            // the elements after it keep the indices the errors name.
            const bool element = field.back() == ']';
            if (reported.insert(field).second) {
                problems.push_back(e);
                if (!element && json::remove_path(doc, field))
                    continue;
            }
            // Back after being taken out (or not in the document at all):
            // a required member, given the valid document's value once.
            const json::Value* stand_in = valid ? json::find_path(*valid, field) : nullptr;
            if (!stand_in && valid) // the member of the valid document's first element
                stand_in = json::find_path(*valid, first_elements(field));
            if (!stand_in || !filled.insert(field).second || !json::set_path(doc, field, *stand_in))
                return problems;
        }
    }
    return problems;
}

} // namespace pcl
