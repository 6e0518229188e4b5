#pragma once
// A child program fed through a pipe into its standard input, whose standard error is kept for error messages: how
// Gravlab runs ffmpeg.
//
// Design note: the child is started with posix_spawn on an explicit path (no shell, so no quoting of file names and no
// PATH lookup behind the caller's back) with three prepared descriptors: standard input from a pipe this object owns
// (or /dev/null), standard output to /dev/null, standard error to an anonymous temporary file. The file, unlike a
// second pipe, never fills up while nobody drains it, so the child cannot block on a long error report; its last
// lines are read back when something fails. Every descriptor of ours is opened close-on-exec, so a child started
// from another thread (or a second child) never inherits the pipe's write end and cannot keep it open. Writing into a
// pipe whose reader has exited raises SIGPIPE, which would end Gravlab; writeInput() holds SIGPIPE off its own thread
// for the write and discards the one it caused, so a dead child surfaces as EPIPE and becomes an exception naming the
// child's last words. Ownership is RAII: finish() closes the pipe (end of input) and waits for the exit status; the
// destructor of a child not finished (a throw on the way) closes the pipe, kills the child with SIGKILL and reaps it,
// so no zombie and no orphaned encoder is left behind.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gravlab {

/// How a child ended.
struct ChildExit {
    bool exited = false;   ///< it returned from main or called exit(); else a signal ended it
    int code = 0;          ///< exit code when exited, else the signal number
    bool timedOut = false; ///< finish() ran out of time and killed it

    bool succeeded() const { return exited && code == 0 && !timedOut; }
    /// "exit status 1", "killed by signal 9 (Killed)", "killed after 20 s without finishing".
    std::string describe() const;
};

/// Writing to the child failed, normally because it exited (the pipe's reader is gone).
class ChildInputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ChildProcess {
public:
    enum class Input {
        Pipe,    ///< writeInput() feeds the child's standard input
        Nothing, ///< standard input is /dev/null
    };

    /// Starts program with arguments (argv[1], ...; argv[0] is program's file name). Throws std::runtime_error naming
    /// the program and the reason when it cannot be started.
    ChildProcess(const std::filesystem::path& program, const std::vector<std::string>& arguments, Input input);
    /// A child that was not finished is killed and reaped here.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// Writes all byteCount bytes into the child's standard input, blocking while the child has not read enough;
    /// throws ChildInputError with the system's reason when the child no longer reads or the write fails.
    void writeInput(const void* bytes, std::size_t byteCount);
    /// Closes the child's standard input and waits for it to exit, at most timeout when given (the child is then
    /// killed and the result says so). Call once.
    ChildExit finish(std::optional<std::chrono::milliseconds> timeout = std::nullopt);

    /// The last non-empty lines the child wrote to its standard error, at most maxLines, joined by " | "; empty when
    /// it wrote nothing.
    std::string lastErrorLines(int maxLines = 2) const;

private:
    void closeInput();

    pid_t m_pid = -1;
    int m_inputPipe = -1; ///< write end of the child's standard input
    int m_errorFile = -1; ///< the anonymous file holding the child's standard error
};

/// The executable name found in the folders of the PATH environment variable, as the shell would find it; empty when
/// none of them holds an executable file of that name.
std::optional<std::filesystem::path> findOnPath(const std::string& name);

} // namespace gravlab
