// Sessions of libhdf5 use and its error stack as one line (see Hdf5Handles.hpp).
#include "io/Hdf5Handles.hpp"

#include <algorithm>
#include <atomic>
#include <exception>

namespace gravlab::io {
namespace {

std::mutex& sessionMutex() {
    static std::mutex mutex;
    return mutex;
}

/// Whether a failed close may have left a stale id in libhdf5's table, which closing the library would touch.
std::atomic<bool>& staleIdsPossible() {
    static std::atomic<bool> possible{false};
    return possible;
}

} // namespace

void noteFailedClose() {
    staleIdsPossible() = true;
}

Hdf5Session::Hdf5Session() : m_exclusive(sessionMutex()), m_exceptionsAtStart(std::uncaught_exceptions()) {
    // Only acts before the library's first use, hence in what every use constructs first.
    static const bool noCleanUpAtExit = H5dont_atexit() >= 0;
    (void)noCleanUpAtExit;
    m_saved = H5Eget_auto2(H5E_DEFAULT, &m_previousFunction, &m_previousData) >= 0;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

Hdf5Session::~Hdf5Session() {
    if (m_saved)
        H5Eset_auto2(H5E_DEFAULT, m_previousFunction, m_previousData);
    // Every handle of the session is closed by now: they live inside the reader or writer that created it.
    if (std::uncaught_exceptions() > m_exceptionsAtStart && !staleIdsPossible())
        H5close();
}

std::string hdf5ErrorText() {
    // Walking upward starts at the innermost frame, where libhdf5 says what it found in the file; the outer frames
    // only repeat "unable to open file" in the words of each layer.
    std::string innermost;
    const auto keepFirst = [](unsigned depth, const H5E_error2_t* error, void* text) -> herr_t {
        if (depth == 0 && error->desc != nullptr)
            *static_cast<std::string*>(text) = error->desc;
        return 0;
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keepFirst, &innermost);
    H5Eclear2(H5E_DEFAULT);
    if (innermost.empty())
        return {};
    // A failed read or write is described with its time, descriptor, buffer address and sizes; the system's reason
    // ("No space left on device") is what a user can act on.
    const std::string systemMarker = "error message = '";
    if (const std::size_t marker = innermost.find(systemMarker); marker != std::string::npos) {
        const std::size_t begin = marker + systemMarker.size();
        const std::size_t end = innermost.find('\'', begin);
        if (end != std::string::npos)
            innermost = innermost.substr(0, innermost.find(':')) + ": " + innermost.substr(begin, end - begin);
    }
    std::replace_if(
        innermost.begin(), innermost.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return "libhdf5 says: " + innermost;
}

} // namespace gravlab::io
