#include "events/event_format.h"

namespace pcl {

std::string event_field_text(const Event& e, const EventField& field)
{
    switch (field.slot) {
    case EventSlot::Object:
        return std::to_string(e.object);
    case EventSlot::File:
        return std::to_string(e.file);
    case EventSlot::Index:
        return std::to_string(e.index);
    case EventSlot::Arg0:
        return std::to_string(e.arg0);
    case EventSlot::Arg1:
        return std::to_string(e.arg1);
    case EventSlot::Detail:
        return std::to_string(e.detail);
    }
    return {};
}

std::string format_event(const Event& e)
{
    std::string out(to_string(e.kind));
    out += " cpu=" + std::to_string(e.cpu);
    if (static_cast<std::size_t>(e.kind) >= kEventKindCount)
        return out;
    for (const EventField& f : event_format(e.kind)) {
        out += ' ';
        out += f.name;
        out += '=';
        out += event_field_text(e, f);
    }
    return out;
}

} // namespace pcl
