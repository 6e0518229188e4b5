// Starting, feeding, waiting for and killing a child program (see ChildProcess.hpp).
#include "ChildProcess.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace gravlab {
namespace {

std::string systemError(int error) {
    return std::strerror(error);
}

/// An anonymous, close-on-exec file in the temporary folder: created, then unlinked at once.
int anonymousTemporaryFile() {
    std::string name = (std::filesystem::temp_directory_path() / "gravlab-child-stderr-XXXXXX").string();
    const int file = ::mkostemp(name.data(), O_CLOEXEC);
    if (file < 0)
        throw std::runtime_error("cannot create a temporary file for a child's error output in " +
                                 std::filesystem::temp_directory_path().string() + ": " + systemError(errno));
    ::unlink(name.c_str());
    return file;
}

void closeDescriptor(int& descriptor) {
    if (descriptor >= 0)
        ::close(descriptor);
    descriptor = -1;
}

/// posix_spawn's file actions, destroyed on every path out.
class SpawnFileActions {
public:
    SpawnFileActions() { ::posix_spawn_file_actions_init(&m_actions); }
    ~SpawnFileActions() { ::posix_spawn_file_actions_destroy(&m_actions); }
    SpawnFileActions(const SpawnFileActions&) = delete;
    SpawnFileActions& operator=(const SpawnFileActions&) = delete;
    posix_spawn_file_actions_t* get() { return &m_actions; }

private:
    posix_spawn_file_actions_t m_actions;
};

/// Holds SIGPIPE off the calling thread while it writes into a pipe whose reader may be gone; a SIGPIPE the write
/// raised is discarded afterwards (unless one was already pending before), so the failure arrives as EPIPE alone.
/// SIGPIPE from a write is directed at the writing thread, so blocking it there is enough.
class SigpipeHeldOff {
public:
    SigpipeHeldOff() {
        sigemptyset(&m_sigpipe);
        sigaddset(&m_sigpipe, SIGPIPE);
        sigset_t pending;
        sigpending(&pending);
        m_alreadyPending = sigismember(&pending, SIGPIPE) == 1;
        pthread_sigmask(SIG_BLOCK, &m_sigpipe, &m_previousMask);
    }
    ~SigpipeHeldOff() { pthread_sigmask(SIG_SETMASK, &m_previousMask, nullptr); }
    SigpipeHeldOff(const SigpipeHeldOff&) = delete;
    SigpipeHeldOff& operator=(const SigpipeHeldOff&) = delete;

    /// After a write failed with EPIPE: takes the SIGPIPE that write left pending.
    void discardRaisedSignal() {
        if (m_alreadyPending)
            return;
        const timespec noWait{0, 0};
        while (sigtimedwait(&m_sigpipe, nullptr, &noWait) < 0 && errno == EINTR) {
        }
    }

private:
    sigset_t m_sigpipe;
    sigset_t m_previousMask;
    bool m_alreadyPending = false;
};

/// waitpid that retries when a signal interrupts it.
pid_t waitForChild(pid_t pid, int& status, int options) {
    pid_t result = 0;
    do {
        result = ::waitpid(pid, &status, options);
    } while (result < 0 && errno == EINTR);
    return result;
}

ChildExit exitFromStatus(int status) {
    ChildExit result;
    result.exited = WIFEXITED(status);
    result.code = result.exited ? WEXITSTATUS(status) : WTERMSIG(status);
    return result;
}

} // namespace

std::string ChildExit::describe() const {
    if (timedOut)
        return "killed after running out of time";
    if (exited)
        return "exit status " + std::to_string(code);
    return "killed by signal " + std::to_string(code) + " (" + strsignal(code) + ")";
}

ChildProcess::ChildProcess(const std::filesystem::path& program, const std::vector<std::string>& arguments,
                           Input input) {
    m_errorFile = anonymousTemporaryFile();
    int pipeEnds[2] = {-1, -1};
    if (input == Input::Pipe) {
        if (::pipe2(pipeEnds, O_CLOEXEC) != 0) {
            const int error = errno;
            closeDescriptor(m_errorFile);
            throw std::runtime_error("cannot create a pipe to " + program.string() + ": " + systemError(error));
        }
        // A frame is megabytes: a larger pipe means fewer wake-ups per frame. The system may refuse the size
        // (fs.pipe-max-size); the default then works, only with more switches.
        ::fcntl(pipeEnds[1], F_SETPIPE_SZ, 1 << 20);
    }

    SpawnFileActions actions;
    if (input == Input::Pipe)
        ::posix_spawn_file_actions_adddup2(actions.get(), pipeEnds[0], STDIN_FILENO);
    else
        ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    ::posix_spawn_file_actions_adddup2(actions.get(), m_errorFile, STDERR_FILENO);

    std::vector<std::string> argumentStrings;
    argumentStrings.reserve(arguments.size() + 1);
    argumentStrings.push_back(program.filename().string());
    argumentStrings.insert(argumentStrings.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& argument : argumentStrings)
        argv.push_back(argument.data());
    argv.push_back(nullptr);

    const int error = ::posix_spawn(&m_pid, program.c_str(), actions.get(), nullptr, argv.data(), environ);
    if (pipeEnds[0] >= 0)
        ::close(pipeEnds[0]); // the child holds its own copy of the read end
    m_inputPipe = pipeEnds[1];
    if (error != 0) {
        m_pid = -1;
        closeDescriptor(m_inputPipe);
        closeDescriptor(m_errorFile);
        throw std::runtime_error("cannot start " + program.string() + ": " + systemError(error));
    }
}

ChildProcess::~ChildProcess() {
    closeInput();
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        waitForChild(m_pid, status, 0);
    }
    closeDescriptor(m_errorFile);
}

void ChildProcess::closeInput() {
    closeDescriptor(m_inputPipe);
}

void ChildProcess::writeInput(const void* bytes, std::size_t byteCount) {
    if (m_inputPipe < 0)
        throw std::logic_error("ChildProcess::writeInput without an open input pipe");
    SigpipeHeldOff sigpipe;
    const auto* next = static_cast<const unsigned char*>(bytes);
    std::size_t left = byteCount;
    while (left > 0) {
        const ssize_t written = ::write(m_inputPipe, next, left);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0) {
            const int error = errno;
            if (error == EPIPE)
                sigpipe.discardRaisedSignal();
            throw ChildInputError(error == EPIPE ? "it stopped reading its input (it exited)"
                                                 : "writing to it failed: " + systemError(error));
        }
        next += written;
        left -= static_cast<std::size_t>(written);
    }
}

ChildExit ChildProcess::finish(std::optional<std::chrono::milliseconds> timeout) {
    if (m_pid <= 0)
        throw std::logic_error("ChildProcess::finish called twice");
    closeInput();
    int status = 0;
    ChildExit result;
    if (!timeout) {
        waitForChild(m_pid, status, 0);
        result = exitFromStatus(status);
    } else {
        const auto deadline = std::chrono::steady_clock::now() + *timeout;
        while (waitForChild(m_pid, status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() >= deadline) {
                ::kill(m_pid, SIGKILL);
                waitForChild(m_pid, status, 0);
                result.timedOut = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        if (!result.timedOut)
            result = exitFromStatus(status);
    }
    m_pid = -1;
    return result;
}

std::string ChildProcess::lastErrorLines(int maxLines) const {
    struct stat info {};
    if (m_errorFile < 0 || ::fstat(m_errorFile, &info) != 0 || info.st_size == 0)
        return {};
    constexpr off_t kTailBytes = 4096; // enough for a few lines of ffmpeg's messages
    const off_t start = info.st_size > kTailBytes ? info.st_size - kTailBytes : 0;
    std::string tail(static_cast<std::size_t>(info.st_size - start), '\0');
    const ssize_t got = ::pread(m_errorFile, tail.data(), tail.size(), start);
    tail.resize(got > 0 ? static_cast<std::size_t>(got) : 0);

    std::vector<std::string> lines;
    std::size_t lineStart = 0;
    while (lineStart < tail.size()) {
        std::size_t lineEnd = tail.find_first_of("\r\n", lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = tail.size();
        if (lineEnd > lineStart)
            lines.push_back(tail.substr(lineStart, lineEnd - lineStart));
        lineStart = lineEnd + 1;
    }
    std::string joined;
    const std::size_t first = lines.size() > static_cast<std::size_t>(maxLines) ? lines.size() - maxLines : 0;
    for (std::size_t i = first; i < lines.size(); ++i)
        joined += (joined.empty() ? "" : " | ") + lines[i];
    return joined;
}

std::optional<std::filesystem::path> findOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (path == nullptr)
        return std::nullopt;
    const std::string folders = path;
    std::size_t start = 0;
    while (start <= folders.size()) {
        std::size_t end = folders.find(':', start);
        if (end == std::string::npos)
            end = folders.size();
        // An empty entry means the current folder, as for the shell.
        const std::filesystem::path folder = end > start ? folders.substr(start, end - start) : ".";
        const std::filesystem::path candidate = folder / name;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace gravlab
