// The fields of a configuration struct, in one table: for each, its JSON
// name, its member, type, unit, documented range, meaning and whether a
// running simulation can take a change of it. A default-constructed struct
// gives the defaults. Reading a file, writing one, the GUI's Parameters
// panel and the check of docs/scenario-format.md all walk the same table,
// so a field is declared once, beside its struct.
//
// The table reads what JSON itself can get wrong: a value of the wrong type,
// or one that does not fit the member. The rules on values (ranges, names,
// rules between fields) are the struct's validate(), which throws a
// FieldError naming the field; the table's ranges are those validate()
// enforces, and tests/core/test_field_tables.cpp holds them to it.
#pragma once

#include "base/enum_words.h"
#include "lib/field_error.h"
#include "lib/json.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pcl {

enum class FieldType : std::uint8_t {
    Integer, ///< a JSON number without fraction or exponent
    Number,  ///< any JSON number
    Boolean,
    String,
    Choice, ///< a string, one of a list of names
};

/// How a change reaches a run.
enum class FieldApply : std::uint8_t {
    Restart, ///< only in a new run
    Live,    ///< at once, on the running engine (Engine::set_pacing)
    Fixed,   ///< never: the format version
};

/// The format's word for @type: "integer", "number", "boolean", "string".
constexpr std::string_view field_type_name(FieldType type) noexcept
{
    switch (type) {
    case FieldType::Integer:
        return "integer";
    case FieldType::Number:
        return "number";
    case FieldType::Boolean:
        return "boolean";
    case FieldType::String:
    case FieldType::Choice:
        return "string";
    }
    return "?";
}

/// Everything about a field but how to reach it in its struct.
struct FieldInfo {
    std::string_view name {};    ///< JSON member name
    std::string_view label {};   ///< what a form calls it: "CPUs"
    std::string_view unit {};    ///< "pages", "ns"; empty for none
    std::string_view allowed {}; ///< the allowed values as the format documents them ("1..1024"); empty for a choice
    std::string_view meaning {}; ///< what the field does, in a sentence or two
    FieldType type = FieldType::String; ///< a string member that sets Choice is a choice; the others follow the member
    FieldApply apply = FieldApply::Restart;
    // Integer: the documented range. A rule between fields (stride at most
    // file_pages) is validate()'s, and allowed says it.
    std::uint64_t min_int = 0;
    std::uint64_t max_int = 0;
    // Number: the documented range; open: both ends excluded.
    double min_real = 0;
    double max_real = 0;
    bool open = false;
    bool power_of_two = false; ///< Integer: the values that matter are powers of two (a form steps by doubling)
    std::span<const std::string_view> choices {}; ///< Choice: the names; empty when they depend on another field
};

/// @v as it appears in a file, shortened for a message.
inline std::string shown_value(const json::Value& v)
{
    std::string s = json::write(v, -1);
    if (s.size() > 60) {
        s.resize(57);
        s += "...";
    }
    return s;
}

/// Throws FieldError(@path, @reason) with the message "path: reason".
[[noreturn]] inline void throw_field_error(const std::string& path, const std::string& reason)
{
    throw FieldError(path, reason, path + ": " + reason);
}

namespace field_io {

[[noreturn]] inline void type_error(const std::string& path, const char* want, const json::Value& v)
{
    throw_field_error(path, std::string("expected ") + want + ", got " + json::Value::type_name(v.type()));
}

inline void read(const json::Value& v, const std::string& path, std::string& out)
{
    if (!v.is_string())
        type_error(path, "a string", v);
    out = v.as_string();
}

inline void read(const json::Value& v, const std::string& path, bool& out)
{
    if (!v.is_bool())
        type_error(path, "a boolean", v);
    out = v.as_bool();
}

inline void read(const json::Value& v, const std::string& path, double& out)
{
    if (!v.is_number())
        type_error(path, "a number", v);
    out = v.as_double();
}

/// Any integer type: the value must be an integer that fits it.
template <typename T>
requires std::is_integral_v<T>
void read(const json::Value& v, const std::string& path, T& out)
{
    if (!v.is_number())
        type_error(path, "an integer", v);
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (!v.is_integer())
        throw_field_error(path, "expected an integer in " + range + ", got " + shown_value(v));
    bool fits;
    if (v.type() == json::Value::Type::Uint)
        fits = v.as_uint() <= std::uint64_t(hi);
    else if constexpr (std::is_signed_v<T>)
        fits = v.as_int() >= std::int64_t(lo) && v.as_int() <= std::int64_t(hi);
    else
        fits = v.as_int() >= 0 && std::uint64_t(v.as_int()) <= std::uint64_t(hi);
    if (!fits)
        throw_field_error(path, "must be in " + range + ", got " + shown_value(v));
    out = v.type() == json::Value::Type::Uint ? T(v.as_uint()) : T(v.as_int());
}

template <auto Member> struct MemberOf;
template <typename S, typename T, T S::*M> struct MemberOf<M> {
    using Struct = S;
    using Type = T;
};

} // namespace field_io

/// A field of struct @S: its description and how to read and write it.
template <typename S> struct Field : FieldInfo {
    json::Value (*get)(const S&) = nullptr;
    /// Sets the field of @s from @v; throws FieldError naming @path for a
    /// value of the wrong type or one the member cannot hold.
    void (*set)(S& s, const json::Value& v, const std::string& path) = nullptr;
};

/// The field of member @Member (&WorkloadSpec::cpus): its type follows the
/// member's.
template <auto Member> Field<typename field_io::MemberOf<Member>::Struct> field(const FieldInfo& info)
{
    using S = typename field_io::MemberOf<Member>::Struct;
    using T = typename field_io::MemberOf<Member>::Type;
    Field<S> f;
    static_cast<FieldInfo&>(f) = info;
    if constexpr (std::is_same_v<T, bool>)
        f.type = FieldType::Boolean;
    else if constexpr (std::is_integral_v<T>)
        f.type = FieldType::Integer;
    else if constexpr (std::is_floating_point_v<T>)
        f.type = FieldType::Number;
    else if constexpr (std::is_same_v<T, std::string>)
        f.type = info.type == FieldType::Choice || !info.choices.empty() ? FieldType::Choice : FieldType::String;
    else
        static_assert(std::is_same_v<T, void>, "a member of another type needs custom_field()");
    f.get = [](const S& s) { return json::Value(s.*Member); };
    f.set = [](S& s, const json::Value& v, const std::string& path) { field_io::read(v, path, s.*Member); };
    return f;
}

/// The field of an enumeration member (&WorkloadSpec::pattern), written in
/// a file by its word: @Words, in the enumeration's order, are the choices.
template <auto Member, const auto& Words>
Field<typename field_io::MemberOf<Member>::Struct> enum_field(const FieldInfo& info)
{
    using S = typename field_io::MemberOf<Member>::Struct;
    using E = typename field_io::MemberOf<Member>::Type;
    static_assert(std::is_enum_v<E>, "enum_field() is for an enumeration member");
    Field<S> f;
    static_cast<FieldInfo&>(f) = info;
    f.type = FieldType::Choice;
    f.choices = Words;
    f.get = [](const S& s) { return json::Value(std::string(enum_word(Words, s.*Member))); };
    f.set = [](S& s, const json::Value& v, const std::string& path) {
        std::string word;
        field_io::read(v, path, word);
        const std::optional<E> value = parse_enum_word<E>(Words, word);
        if (!value) {
            std::string allowed;
            for (const std::string_view w : Words)
                allowed += (allowed.empty() ? "" : ", ") + std::string(w);
            throw_field_error(path, "'" + word + "' is not one of: " + allowed);
        }
        s.*Member = *value;
    };
    return f;
}

/// A field that is not a plain member (a constant, a value computed from
/// others): @info's type says what it is in JSON.
template <typename S>
Field<S> custom_field(
    const FieldInfo& info, json::Value (*get)(const S&), void (*set)(S&, const json::Value&, const std::string&))
{
    Field<S> f;
    static_cast<FieldInfo&>(f) = info;
    f.get = get;
    f.set = set;
    return f;
}

/// The fields of one JSON object, which a struct @S holds.
template <typename S> struct FieldTable {
    /// The member of the document holding the object ("workload"); "" when
    /// the fields are members of the document itself.
    std::string_view object;
    std::vector<Field<S>> fields;

    const Field<S>* find(std::string_view name) const
    {
        for (const Field<S>& f : fields)
            if (f.name == name)
                return &f;
        return nullptr;
    }

    /// Reads, in table order, every field that @obj has into @s; @path is
    /// the object's path ("" for the document). Members that name no field
    /// are the caller's to refuse.
    void read(const json::Value& obj, S& s, const std::string& path) const
    {
        for (const Field<S>& f : fields)
            if (const json::Value* v = obj.find(f.name))
                f.set(s, *v, path.empty() ? std::string(f.name) : path + "." + std::string(f.name));
    }

    /// Appends every field of @s to @out, in table order.
    void write(const S& s, json::Object& out) const
    {
        for (const Field<S>& f : fields)
            out.emplace_back(std::string(f.name), f.get(s));
    }
};

} // namespace pcl
