// JSON values, a strict parser and a writer: scenario files in, run results
// out, for the command line and the GUI alike (the GUI reads and writes
// scenarios through this too, not through Qt's QJsonDocument). Written here
// because core stays free of Qt, and because a user editing a file by hand
// wants what general-purpose readers do not give: the line and column of an
// error ("3:8: invalid literal"), duplicate members refused, and 64-bit
// integers kept exact.
//
// Strict RFC 8259: no comments, no trailing commas, no NaN or infinity, one
// value per document. Numbers keep whether they were written as integers,
// so a scenario's page counts and seeds (up to 2^64 - 1) are exact. Objects
// keep their members in the order written, so a result file reads in the
// order its writer chose.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pcl::json {

class Value;
using Array = std::vector<Value>;
/// Members in document order; keys are unique (the parser rejects duplicates).
using Object = std::vector<std::pair<std::string, Value>>;

/// A document that is not JSON: what is wrong and where (1-based line and column).
class ParseError : public std::runtime_error {
public:
    ParseError(const std::string& what, std::size_t line, std::size_t column);
    std::size_t line() const noexcept { return line_; }
    std::size_t column() const noexcept { return column_; }

private:
    std::size_t line_;
    std::size_t column_;
};

class Value {
public:
    enum class Type : std::uint8_t { Null, Bool, Int, Uint, Double, String, Array, Object };

    Value() = default;
    Value(std::nullptr_t) { }
    Value(bool b)
        : v_(b)
    {
    }
    Value(int i)
        : v_(std::int64_t(i))
    {
    }
    Value(unsigned u)
        : v_(std::uint64_t(u))
    {
    }
    Value(long i)
        : v_(std::int64_t(i))
    {
    }
    Value(long long i)
        : v_(std::int64_t(i))
    {
    }
    Value(unsigned long u)
        : v_(std::uint64_t(u))
    {
    }
    Value(unsigned long long u)
        : v_(std::uint64_t(u))
    {
    }
    Value(double d)
        : v_(d)
    {
    }
    Value(const char* s)
        : v_(std::string(s))
    {
    }
    Value(std::string_view s)
        : v_(std::string(s))
    {
    }
    Value(std::string s)
        : v_(std::move(s))
    {
    }
    Value(Array a)
        : v_(std::move(a))
    {
    }
    Value(Object o)
        : v_(std::move(o))
    {
    }

    Type type() const noexcept { return static_cast<Type>(v_.index()); }
    /// "null", "boolean", "integer", "number", "string", "array", "object":
    /// the words error messages use.
    static const char* type_name(Type type) noexcept;

    bool is_null() const noexcept { return type() == Type::Null; }
    bool is_bool() const noexcept { return type() == Type::Bool; }
    /// An integer (written without fraction or exponent) of either sign.
    bool is_integer() const noexcept { return type() == Type::Int || type() == Type::Uint; }
    /// Any number, integer or not.
    bool is_number() const noexcept { return is_integer() || type() == Type::Double; }
    bool is_string() const noexcept { return type() == Type::String; }
    bool is_array() const noexcept { return type() == Type::Array; }
    bool is_object() const noexcept { return type() == Type::Object; }

    // Accessors throw std::logic_error when the type does not match; callers
    // check the type first and report a field error themselves.
    bool as_bool() const;
    /// Integers only; std::out_of_range if it does not fit.
    std::int64_t as_int() const;
    std::uint64_t as_uint() const;
    /// Any number.
    double as_double() const;
    const std::string& as_string() const;
    const Array& as_array() const;
    Array& as_array();
    const Object& as_object() const;
    Object& as_object();

    /// Object member @key, or nullptr if absent (or not an object).
    const Value* find(std::string_view key) const noexcept;
    Value* find(std::string_view key) noexcept;
    /// Sets (replacing or appending) object member @key; the value must be an object.
    Value& set(std::string_view key, Value value);

    friend bool operator==(const Value&, const Value&) = default;

private:
    // Order matches Type.
    std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Array, Object> v_;
};

/// Parses a whole document. Throws ParseError.
Value parse(std::string_view text);

/// Writes @v as JSON. indent < 0: one line; otherwise that many spaces per
/// level, one member or element per line. Doubles are written with the
/// fewest digits that read back to the same value; a NaN or an infinity
/// (not representable in JSON) is written as null.
std::string write(const Value& v, int indent = 2);

} // namespace pcl::json
