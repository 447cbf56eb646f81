// A JSON Schema check for the tests: the part of draft 2020-12 that
// docs/result.schema.json uses (type, properties, required,
// additionalProperties: false, items), each problem reported with the path
// of the value ("totals.faults.minor: integer expected, got string").
#pragma once

#include "lib/json.h"

#include <string>
#include <vector>

namespace pcl::test {

inline bool schema_type_matches(const json::Value& v, const std::string& type)
{
    if (type == "integer")
        return v.is_integer();
    if (type == "number")
        return v.is_number();
    if (type == "string")
        return v.is_string();
    if (type == "boolean")
        return v.is_bool();
    if (type == "object")
        return v.is_object();
    if (type == "array")
        return v.is_array();
    if (type == "null")
        return v.is_null();
    return false;
}

/// Every way @v breaks @schema, each with its path under @at.
inline void check_schema(
    const json::Value& v, const json::Value& schema, const std::string& at, std::vector<std::string>& problems)
{
    const std::string here = at.empty() ? std::string("(root)") : at;
    if (const json::Value* type = schema.find("type")) {
        std::vector<std::string> types;
        if (type->is_string())
            types.push_back(type->as_string());
        else
            for (const json::Value& t : type->as_array())
                types.push_back(t.as_string());
        bool ok = false;
        for (const std::string& t : types)
            ok = ok || schema_type_matches(v, t);
        if (!ok) {
            std::string expected;
            for (const std::string& t : types)
                expected += (expected.empty() ? "" : " or ") + t;
            problems.push_back(here + ": " + expected + " expected, got " + json::Value::type_name(v.type()));
            return;
        }
    }
    if (v.is_object()) {
        const json::Value* props = schema.find("properties");
        if (const json::Value* required = schema.find("required"))
            for (const json::Value& name : required->as_array())
                if (!v.find(name.as_string()))
                    problems.push_back(here + ": missing member '" + name.as_string() + "'");
        const json::Value* additional = schema.find("additionalProperties");
        for (const auto& [name, member] : v.as_object()) {
            const std::string path = at.empty() ? name : at + "." + name;
            if (const json::Value* sub = props ? props->find(name) : nullptr)
                check_schema(member, *sub, path, problems);
            else if (additional && additional->is_bool() && !additional->as_bool())
                problems.push_back(path + ": not a member the schema allows");
        }
    }
    if (v.is_array())
        if (const json::Value* items = schema.find("items"))
            for (std::size_t i = 0; i < v.as_array().size(); ++i)
                check_schema(v.as_array()[i], *items, at + "[" + std::to_string(i) + "]", problems);
}

inline std::vector<std::string> schema_problems(const json::Value& v, const json::Value& schema)
{
    std::vector<std::string> problems;
    check_schema(v, schema, "", problems);
    return problems;
}

} // namespace pcl::test
