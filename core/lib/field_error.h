// An invalid value of one configuration field, and which field it is.
//
// A configuration's validate() names the field it refuses by its path in
// the configuration's JSON object ("cpus", "pacing.ops_per_second"), so a
// caller that holds the configuration inside a larger document prefixes
// its own path (within) instead of recovering the field from the words of
// the message.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace pcl {

class FieldError : public std::invalid_argument {
public:
    /// @field: the path of the field; @reason: what is wrong with it, a
    /// phrase that follows the path ("must be in [1, 1024], got 0");
    /// @message: what() for a caller that shows the error without a path.
    FieldError(std::string field, std::string reason, const std::string& message)
        : std::invalid_argument(message)
        , field_(std::move(field))
        , reason_(std::move(reason))
    {
    }
    /// The message is the field and the reason: "memory_pages must be ...".
    FieldError(std::string field, std::string reason)
        : FieldError(field, reason, field + " " + reason)
    {
    }

    const std::string& field() const noexcept { return field_; }
    const std::string& reason() const noexcept { return reason_; }

    /// The same error seen from the object that holds this field's object
    /// at member @object: field "workload.cpus", the same message.
    FieldError within(std::string_view object) const
    {
        return FieldError(std::string(object) + "." + field_, reason_, what());
    }

private:
    std::string field_;
    std::string reason_;
};

/// Runs @check, the validate() of the object at member @object, and names
/// the field of any FieldError it throws from here ("workload.cpus").
template <typename Check> void validate_within(std::string_view object, Check&& check)
{
    try {
        check();
    } catch (const FieldError& e) {
        throw e.within(object);
    }
}

} // namespace pcl
