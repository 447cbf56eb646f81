// One step of a workload: what a simulated CPU asks of the kernel next.
//
// The engine turns each record into a call into the simulated kernel: a
// read(2) goes through the page cache and the copy to user space, a file
// fault through the fault path of an mmap()ed file, an anonymous fault
// through the fault path of private memory (pft, from the pagefault scalability thread), where there is
// no file and so no page-cache lookup at all. Records are plain values so a
// generator can be run ahead of the engine, replayed or compared in tests.
#pragma once

#include "base/page.h"

#include <cstdint>

namespace pcl {

enum class OperationKind : std::uint8_t {
    Read,      ///< read(2) of `count` pages of `file` from page `index`
    FileFault, ///< touch of page `index` of an mmap()ed `file`: a read or a write fault
    AnonFault, ///< touch of page `index` of the anonymous region (pft); `file` is unused
    Write,     ///< write(2) of `count` pages of `file` from page `index`
    Fsync,     ///< fsync(2) of `file`: its dirty pages written, and waited for
    Sync,      ///< sync(2): every file's dirty pages written, and waited for
};

struct Operation {
    OperationKind kind = OperationKind::Read;
    FileId file = 0;      ///< the file read or faulted (0 for AnonFault)
    pgoff_t index = 0;    ///< first page, in pages from the start of the file or region
    pgoff_t count = 1;    ///< pages covered: a read's length; always 1 for a fault
    bool write = false;   ///< a fault that writes (a write to a MAP_SHARED page dirties it)
    bool partial = false; ///< Write: the first or last page is only partly written (read before written)

    friend bool operator==(const Operation&, const Operation&) = default;
};

/// Where a simulated CPU's operations come from: a seeded generator
/// (workload.h) or a replayed trace (trace_replay.h). Each CPU's source is
/// written on every operation by its thread alone, so each starts on a cache
/// line of its own: two sources allocated side by side and sharing a line
/// cost pft half its 2-CPU throughput.
class alignas(64) OperationSource {
public:
    virtual ~OperationSource() = default;
    /// The next operation into @op; false when the sequence is over.
    virtual bool next(Operation& op) = 0;
    /// A background CPU runs until every other CPU is done, and is then
    /// stopped (process B of Morton's thrashing test, streaming while process A is timed).
    virtual bool background() const noexcept { return false; }
};

} // namespace pcl
