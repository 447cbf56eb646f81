// Whole-file reads and atomic writes (see file_io.h).
#include "lib/file_io.h"

#include "lib/scratch_paths.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
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

std::string read_file(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            // A directory opens but fails here with EISDIR.
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
