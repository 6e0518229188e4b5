#pragma once
// The most heap memory that was live at once, measured: the sim test binary replaces the global operator new and
// delete (HeapPeak.cpp) with versions that count the bytes of every allocation, on every thread.
//
// Design note: this is the independent reference for the memory estimates (MemoryBudget.hpp): they are derived from
// the code's buffers by hand, this counts what the code actually allocated. Each block carries its size in a 16-byte
// header (which keeps malloc's 16-byte alignment), so delete needs no size from the caller. Memory that does not come
// from operator new (OpenMP's runtime, malloc in libraries) is not counted; the simulation's buffers all do.
#include <cstdint>

namespace gravlab::simtest {

class HeapPeak {
public:
    /// Starts a measurement at the bytes live now.
    HeapPeak();
    /// Most bytes live at once since construction, beyond those live at construction (0 if never above).
    std::uint64_t peakBytes() const;

private:
    std::int64_t m_baseline;
};

} // namespace gravlab::simtest
