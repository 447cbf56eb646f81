// Paths into a JSON document, as the errors of scenario and lesson files
// name the field they refuse: members joined by dots, array elements by
// their index in brackets ("workload.cpus", "steps[2].pause.lock").
#pragma once

#include "lib/json.h"

#include <string_view>

namespace pcl::json {

/// The member or element @path names, or null.
const Value* find_path(const Value& doc, std::string_view path);
/// Takes the member or element @path names out of @doc; false if @doc has
/// nothing at @path (or @path is not a path).
bool remove_path(Value& doc, std::string_view path);
/// Sets what @path names to @value, adding the member if its object is
/// there; false if the object or array it belongs to is not.
bool set_path(Value& doc, std::string_view path, Value value);

} // namespace pcl::json
