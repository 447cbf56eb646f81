// A directory of files replaced as one (see output_set.h).
#include "lib/output_set.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcl {

namespace fs = std::filesystem;

namespace {

/// @dir as a path whose last component names it ("out/." is "out").
fs::path named_path(const std::string& dir)
{
    fs::path p = fs::absolute(dir).lexically_normal();
    if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path();
    return p;
}

std::string staging_beside(const std::string& dir)
{
    const fs::path p = named_path(dir);
    if (p == p.root_path())
        throw std::runtime_error("cannot write a set of files as one in " + dir + ": it is the root directory");
    return (p.parent_path() / ("." + p.filename().string() + ".staging." + std::to_string(::getpid()))).string();
}

[[noreturn]] void fail(const std::string& what, const std::string& path)
{
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

/// fsync(2) of @path, a file or a directory.
void sync_path(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("cannot open", path);
    const int rc = ::fsync(fd);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (rc != 0)
        fail("cannot flush", path);
}

/// Flushes every file and directory under @dir, then @dir: the files a
/// writer did not flush itself (Qt's charts) are on disk before the swap
/// makes them the set.
void sync_tree(const std::string& dir)
{
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() || e.is_directory())
            sync_path(e.path().string());
    sync_path(dir);
}

} // namespace

OutputSet::OutputSet(std::string dir)
    : dir_(named_path(dir).string())
    , staging_(staging_beside(dir))
    , scratch_(staging_)
{
    struct stat here {
    }, parent {};
    if (::stat(dir_.c_str(), &here) != 0)
        fail("cannot write to", dir_);
    if (!S_ISDIR(here.st_mode))
        throw std::runtime_error("cannot write to " + dir_ + ": not a directory");
    const std::string up = fs::path(dir_).parent_path().string();
    if (::stat(up.c_str(), &parent) != 0)
        fail("cannot write beside", dir_);
    if (here.st_dev != parent.st_dev)
        throw std::runtime_error(
            "cannot replace the files of " + dir_ + " as one: it is a mount point (give a directory inside it)");
    std::error_code ec;
    fs::remove_all(staging_, ec); // one a killed process of this pid left
    if (::mkdir(staging_.c_str(), 0777) != 0)
        fail("cannot make", staging_);
}

OutputSet::~OutputSet()
{
    if (committed_)
        return;
    std::error_code ec;
    fs::remove_all(staging_, ec);
}

void OutputSet::commit()
{
    sync_tree(staging_);
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
        if (errno == ENOENT) {
            // The directory went while the files were staged: the staged set is all there is.
            if (::rename(staging_.c_str(), dir_.c_str()) != 0)
                fail("cannot put the files in place as", dir_);
        } else if (errno == EINVAL || errno == ENOSYS) {
            // A file system without the exchange: the old set steps aside
            // first, and for a moment there is no directory, never a mixed one.
            const std::string old = staging_ + ".old";
            if (::rename(dir_.c_str(), old.c_str()) != 0)
                fail("cannot replace", dir_);
            if (::rename(staging_.c_str(), dir_.c_str()) != 0) {
                const int saved = errno;
                ::rename(old.c_str(), dir_.c_str());
                errno = saved;
                fail("cannot replace", dir_);
            }
            if (::rename(old.c_str(), staging_.c_str()) != 0) {
                std::error_code ec;
                fs::remove_all(old, ec);
            }
        } else {
            fail("cannot replace", dir_);
        }
    }
    committed_ = true;
    // The swap itself on disk. The set is in place whatever this says, so
    // a failure here is not the set's.
    if (const int fd = ::open(fs::path(dir_).parent_path().c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
    // The staging path holds the old set now. It stays registered until it
    // is gone, so that a second Ctrl+C meanwhile removes the rest of it.
    std::error_code ec;
    fs::remove_all(staging_, ec);
    scratch_.release();
}

std::vector<std::string> OutputSet::foreign_entries(const std::string& dir, const std::vector<std::string>& known)
{
    std::vector<std::string> foreign;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec == std::errc::no_such_file_or_directory)
        return foreign;
    if (ec)
        throw std::runtime_error("cannot read " + dir + ": " + ec.message());
    for (const fs::directory_entry& e : it) {
        const std::string name = e.path().filename().string();
        if (std::find(known.begin(), known.end(), name) == known.end())
            foreign.push_back(name);
    }
    std::sort(foreign.begin(), foreign.end());
    return foreign;
}

} // namespace pcl
