// A directory of files that are one result (a run's summary, time series,
// lock table, trace, report and charts) replaced as one: the new files are
// written into a staging directory beside it, and the two directories are
// swapped with one rename (renameat2's RENAME_EXCHANGE). A reader, a full
// disk, a crash or a second Ctrl+C then finds the directory holding one
// result's files, the old set or the new one, never a mixture.
#pragma once

#include "lib/scratch_paths.h"

#include <string>
#include <vector>

namespace pcl {

class OutputSet {
public:
    /// Makes the staging directory beside @dir, which must exist (a
    /// directory of its own file system's: not a mount point). Throws
    /// std::runtime_error naming the path and the reason.
    explicit OutputSet(std::string dir);
    /// Removes the staging directory unless commit() put it in place.
    ~OutputSet();
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;

    /// Where the set's files are written until commit().
    const std::string& staging() const noexcept { return staging_; }
    /// @name's path in the staging directory.
    std::string path(const std::string& name) const { return staging_ + "/" + name; }

    /// Puts the staged files in the directory's place, with every file and
    /// the swap flushed to disk, and removes the old files. Throws
    /// std::runtime_error naming the directory and the reason; the directory
    /// then still holds the old files.
    void commit();

    /// The entries of @dir whose names are not in @known (a set's own
    /// names, which a later set replaces), sorted; none when @dir does not
    /// exist. Throws std::runtime_error when @dir cannot be read.
    static std::vector<std::string> foreign_entries(const std::string& dir, const std::vector<std::string>& known);

private:
    std::string dir_;
    std::string staging_;
    ScratchPath scratch_;
    bool committed_ = false;
};

} // namespace pcl
