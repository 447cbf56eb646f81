// The paths a program is part way through writing: a file's temporary
// twin before it is renamed into place, a directory of files staged to
// replace another as one. Killed there, the program would leave them behind
// half written. A second Ctrl+C, which must stop at once, removes them from
// its signal handler: remove_scratch_paths() uses only system calls that are
// safe in one (openat, getdents64, unlinkat, close), and the paths are kept
// in fixed slots the handler can read whatever the program was doing.
#pragma once

#include <string>

namespace pcl {

/// Registers @path as being written for as long as it lives. It does not
/// remove the path when it goes (its owner renames or removes it); only
/// remove_scratch_paths() does. A path longer than PATH_MAX, or one more than
/// the registry's 64 slots hold, is not registered.
class ScratchPath {
public:
    explicit ScratchPath(const std::string& path) noexcept;
    ~ScratchPath();
    ScratchPath(const ScratchPath&) = delete;
    ScratchPath& operator=(const ScratchPath&) = delete;

    /// Whether the registry holds the path.
    bool registered() const noexcept { return slot_ >= 0; }
    /// Takes the path out of the registry before this goes.
    void release() noexcept;

private:
    int slot_ = -1;
};

/// Removes every registered path: a file, or a directory with everything in
/// it. Async-signal-safe.
void remove_scratch_paths() noexcept;

} // namespace pcl
