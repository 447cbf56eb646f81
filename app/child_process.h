// Another program run by the command line, as `explore TEST` runs one of
// core's test programs: its output kept in a file for the person to read if
// it fails, and the lines it writes to a pipe of its own (a descriptor
// named in its environment) handed over as they come.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace pcl::cli {

struct ChildProcess {
    std::string program;                                  ///< a path: no PATH search
    std::vector<std::string> args;                        ///< after the program's name
    std::vector<std::pair<std::string, std::string>> env; ///< set on top of ours
    /// If not empty, the name of the variable through which the child
    /// learns the descriptor of its report pipe.
    std::string report_fd_variable;
};

struct ChildEnd {
    int exit_code = -1;     ///< its exit status, when it exited
    int signal = 0;         ///< the signal that ended it, or 0
    std::string output;     ///< what it wrote to stdout and stderr, together
    bool cancelled = false; ///< @cancel was set before it ended, or a SIGINT (a Ctrl+C) ended it
};

/// Runs @child to its end: each whole line it writes to its report pipe is
/// given to @on_line as it comes; when @cancel becomes true the child is
/// sent SIGTERM (and, a second later, SIGKILL). Throws std::runtime_error,
/// naming the program, if it cannot be started.
ChildEnd run_child(const ChildProcess& child, const std::function<void(const std::string&)>& on_line = {},
    const std::atomic<bool>* cancel = nullptr);

/// Whether @path names a file this process may execute.
bool is_executable(const std::string& path);

} // namespace pcl::cli
