// Whole-file reads and atomic writes (see file_io.h).
#include "lib/file_io.h"

#include "lib/scratch_paths.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pcl {

int try_write_file_atomically(const std::string& path, std::string_view text) noexcept
{
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    // A second Ctrl+C while the twin is written removes it (lib/scratch_paths.h).
    const ScratchPath scratch(tmp);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno;
    const auto give_up = [&](int why, bool open) {
        if (open)
            ::close(fd);
        ::unlink(tmp.c_str());
        return why;
    };
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return give_up(errno, true);
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0)
        return give_up(errno, true);
    if (::close(fd) != 0)
        return give_up(errno, false);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        return give_up(errno, false);
    return 0;
}

void write_file_atomically(const std::string& path, const std::string& text)
{
    if (const int e = try_write_file_atomically(path, text))
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
}

namespace {

std::string kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return S_ISREG(mode) ? std::string() : "something other than a file";
}

} // namespace

std::string non_regular_kind(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 ? kind_of(st.st_mode) : std::string();
}

std::string read_file(const std::string& path)
{
    // O_NONBLOCK: opening a FIFO nobody writes to returns at once, to be
    // refused below, instead of waiting for a writer; a regular file's
    // reads ignore it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        throw std::runtime_error("cannot read " + path + ": " + why);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw std::runtime_error("cannot read " + path + ": it is " + kind_of(st.st_mode) + ", not a regular file");
    }
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            throw std::runtime_error("cannot read " + path + ": " + why);
        }
        text.append(buf, std::size_t(n));
    }
    ::close(fd);
    return text;
}

} // namespace pcl
