// A record as text, from its kind's declaration (event_kinds.h), the way
// ftrace prints a tracepoint from its TRACE_EVENT: the kind's name, the CPU,
// then every declared field as name=value.
#pragma once

#include "events/event.h"

#include <string>

namespace pcl {

/// The value of @field in @e as a decimal number (signed for the slots that
/// are: arg0, arg1).
std::string event_field_text(const Event& e, const EventField& field);

/// "fault_end cpu=2 vpn=40 file=3 page=5 duration_ns=1200 fault_kind=3".
std::string format_event(const Event& e);

} // namespace pcl
