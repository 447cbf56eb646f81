// Whole-file reads and atomic writes, for scenario files and run results.
//
// A write goes to a temporary file beside the target, is flushed to disk and
// then renamed over it, so a reader (or a crash) never sees half a file.
#pragma once

#include <string>
#include <string_view>

namespace pcl {

/// Writes @text to @path atomically. Throws std::runtime_error naming the
/// path and the reason on failure; the target is then left as it was.
void write_file_atomically(const std::string& path, const std::string& text);
/// As write_file_atomically, but returns the errno of what failed (0 when
/// the file was written) instead of throwing.
int try_write_file_atomically(const std::string& path, std::string_view text) noexcept;

/// The whole contents of @path. Throws std::runtime_error naming the path and
/// the reason (strerror) when it cannot be read, or what it is when it is not
/// a regular file: a FIFO or a device (a link to /dev/zero) would never end,
/// or never start.
std::string read_file(const std::string& path);

/// What @path is when it is there but is not a regular file, links
/// followed: "a directory", "a FIFO", "a character device", "a block
/// device", "a socket"; empty for a regular file or nothing there.
std::string non_regular_kind(const std::string& path);

} // namespace pcl
