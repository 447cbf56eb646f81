#include "child_process.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace pcl::cli {

namespace {

/// A descriptor closed when it goes out of scope.
struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// A file for the child's output, already unlinked: nothing is left behind
/// whatever happens.
int output_file()
{
    const char* dir = std::getenv("TMPDIR");
    std::string name = std::string(dir && *dir ? dir : "/tmp") + "/pagecache-lab-child-XXXXXX";
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("cannot make a file for a test program's output in " + name.substr(0, name.rfind('/'))
            + ": " + std::strerror(errno));
    ::unlink(name.c_str());
    return fd;
}

std::string read_all(int fd)
{
    std::string text;
    ::lseek(fd, 0, SEEK_SET);
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return text;
        text.append(buffer, std::size_t(n));
    }
}

/// Our environment with @extra set on top.
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& extra)
{
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        bool replaced = false;
        for (const auto& [name, value] : extra)
            replaced = replaced || entry.starts_with(name + "=");
        if (!replaced)
            env.push_back(entry);
    }
    for (const auto& [name, value] : extra)
        env.push_back(name + "=" + value);
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& words)
{
    std::vector<char*> p;
    for (std::string& w : words)
        p.push_back(w.data());
    p.push_back(nullptr);
    return p;
}

} // namespace

bool is_executable(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

ChildEnd run_child(
    const ChildProcess& child, const std::function<void(const std::string&)>& on_line, const std::atomic<bool>* cancel)
{
    Fd output { output_file() };
    // The report pipe: its read end ours alone, its write end inherited.
    int ends[2] = { -1, -1 };
    if (::pipe(ends) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    Fd reader { ends[0] };
    Fd writer { ends[1] };
    ::fcntl(reader.fd, F_SETFD, FD_CLOEXEC);

    std::vector<std::pair<std::string, std::string>> extra = child.env;
    if (!child.report_fd_variable.empty())
        extra.emplace_back(child.report_fd_variable, std::to_string(writer.fd));
    std::vector<std::string> env = child_environment(extra);
    std::vector<std::string> argv { child.program };
    argv.insert(argv.end(), child.args.begin(), child.args.end());
    std::vector<char*> argv_p = pointers(argv);
    std::vector<char*> env_p = pointers(env);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, output.fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output.fd, STDERR_FILENO);
    pid_t pid = -1;
    const int failed = ::posix_spawn(&pid, child.program.c_str(), &actions, nullptr, argv_p.data(), env_p.data());
    posix_spawn_file_actions_destroy(&actions);
    if (failed)
        throw std::runtime_error("cannot run " + child.program + ": " + std::strerror(failed));
    ::close(std::exchange(writer.fd, -1)); // the child's end: EOF when it ends

    ChildEnd end;
    std::string pending;
    using Clock = std::chrono::steady_clock; // how long the person waits for a child told to stop
    Clock::time_point terminated {};
    for (;;) {
        if (cancel && cancel->load() && !end.cancelled) {
            end.cancelled = true;
            terminated = Clock::now();
            ::kill(pid, SIGTERM);
        }
        if (end.cancelled && Clock::now() - terminated > std::chrono::seconds(1))
            ::kill(pid, SIGKILL);
        pollfd p { reader.fd, POLLIN, 0 };
        const int ready = ::poll(&p, 1, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        char buffer[4096];
        const ssize_t n = ::read(reader.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // every copy of the write end closed: the child ended
        pending.append(buffer, std::size_t(n));
        for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
            if (on_line)
                on_line(pending.substr(0, nl));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (WIFEXITED(status))
        end.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        end.signal = WTERMSIG(status);
    // A Ctrl+C at a terminal reaches the child too (the whole foreground
    // process group), which may end of it before this process has seen its
    // own: stopped, not broken, either way.
    if ((cancel && cancel->load()) || end.signal == SIGINT)
        end.cancelled = true;
    end.output = read_all(output.fd);
    return end;
}

} // namespace pcl::cli
