// Traces recorded with
//   strace -f -tt -e trace=openat,read,pread64,lseek,mmap,close -o FILE CMD
// turned into a Trace: file descriptors followed to paths, file offsets
// followed through read and lseek. docs/trace-format.md says precisely what
// each call becomes and what is ignored.
#pragma once

#include "workload/trace.h"

#include <iosfwd>

namespace pcl {

/// Parses strace output. A line that is not strace output, or a traced call
/// whose arguments or result cannot be read, is a bad line: TraceError under
/// BadLines::Stop, counted and skipped under BadLines::Skip. Failed calls,
/// calls on descriptors the trace never opened and other syscalls are not
/// errors; they are ignored. Events are in time order (a call's time is when
/// it was entered), each thread's in the order it made them.
Trace parse_trace_strace(std::istream& in, BadLines policy);

} // namespace pcl
