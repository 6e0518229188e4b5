#pragma once
// Owners for libhdf5's handles, one session per use of libhdf5, and libhdf5's error messages as text.
//
// Design note: every libhdf5 object (file, group, dataset, dataspace, attribute, datatype, property list) is an integer
// hid_t that must be closed by the function of its kind; Hdf5Handle<Close> owns one and closes it on every path, so a
// throw halfway through a read or a write leaks nothing and never leaves a file open. A failed libhdf5 call returns a
// negative id, which the owner holds as "none": a handle is built straight from the call and then checked.
// Every read or write runs in an Hdf5Session, which works around three weaknesses of libhdf5 1.10 (Debian 12's):
//   - it prints its error stack to stderr; the session switches that off (restoring what was set before), and
//     hdf5ErrorText() turns the innermost message ("truncated file: eof = ...") into the text of a SnapshotError;
//   - a damaged file can leave its global state (free lists, caches) poisoned, so that reading the same file again
//     reads freed memory (found by the fuzzer, fuzz/FuzzHdf5.cpp); a session that ends by an exception therefore
//     closes the library (H5close), which the next session reopens fresh. Sessions hold one process-wide mutex, so no
//     other thread of ours is inside libhdf5 when that happens (libhdf5 serialises its calls anyway), and nothing
//     else in Gravlab's process uses libhdf5;
//   - a file whose close failed (a flush onto a full disk) is freed but its id stays in libhdf5's table, and closing
//     the library then touches the freed memory (a bug of libhdf5 before 1.14.1). After such a failure the library
//     is never closed again, not even by libhdf5's own clean-up at exit, which the first session switches off.
#include <hdf5.h>
#include <mutex>
#include <string>
#include <utility>

namespace gravlab::io {

/// Remembers that libhdf5 failed to close something, which may have left a stale id behind (see the design note).
void noteFailedClose();

template <herr_t (*Close)(hid_t)> class Hdf5Handle {
public:
    Hdf5Handle() = default;
    explicit Hdf5Handle(hid_t id) : m_id(id < 0 ? H5I_INVALID_HID : id) {}
    ~Hdf5Handle() { close(); }
    Hdf5Handle(Hdf5Handle&& other) noexcept : m_id(std::exchange(other.m_id, H5I_INVALID_HID)) {}
    Hdf5Handle& operator=(Hdf5Handle&& other) noexcept {
        if (this != &other) {
            close();
            m_id = std::exchange(other.m_id, H5I_INVALID_HID);
        }
        return *this;
    }
    Hdf5Handle(const Hdf5Handle&) = delete;
    Hdf5Handle& operator=(const Hdf5Handle&) = delete;

    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    /// Closes now and says whether libhdf5 succeeded: closing a file is where its last buffered bytes are written, so
    /// a writer checks this instead of leaving it to the destructor, which cannot report.
    bool close() {
        if (m_id < 0)
            return true;
        if (Close(std::exchange(m_id, H5I_INVALID_HID)) >= 0)
            return true;
        noteFailedClose();
        return false;
    }

private:
    hid_t m_id = H5I_INVALID_HID;
};

using Hdf5File = Hdf5Handle<H5Fclose>;
using Hdf5Group = Hdf5Handle<H5Gclose>;
using Hdf5Dataset = Hdf5Handle<H5Dclose>;
using Hdf5Dataspace = Hdf5Handle<H5Sclose>;
using Hdf5Attribute = Hdf5Handle<H5Aclose>;
using Hdf5Datatype = Hdf5Handle<H5Tclose>;
using Hdf5PropertyList = Hdf5Handle<H5Pclose>;

/// One use of libhdf5 by a reader or a writer (see the design note): exclusive within the process, libhdf5's error
/// printing off, and the library closed afterwards when the session ends by an exception.
class Hdf5Session {
public:
    Hdf5Session();
    ~Hdf5Session();
    Hdf5Session(const Hdf5Session&) = delete;
    Hdf5Session& operator=(const Hdf5Session&) = delete;

private:
    std::unique_lock<std::mutex> m_exclusive;
    int m_exceptionsAtStart = 0;
    H5E_auto2_t m_previousFunction = nullptr;
    void* m_previousData = nullptr;
    bool m_saved = false;
};

/// "libhdf5 says: <innermost message of the current error stack>", or "" when the stack is empty; clears the stack.
std::string hdf5ErrorText();

} // namespace gravlab::io
