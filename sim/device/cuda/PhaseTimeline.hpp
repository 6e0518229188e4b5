#pragma once
// Device time per phase (force, integrate, ...) over a run of steps, from CUDA events.
//
// Design note: one event is recorded at the start and one after every phase, each tagged with the phase that just
// ended; a phase's time is the sum of the gaps that end with its tag. Events are pooled and reused across calls, so
// a steady simulation creates none after its first frames. Reading the totals waits for the last event only.
#include "device/cuda/CudaStream.hpp"

#include <cstddef>
#include <vector>

namespace gravlab {

class PhaseTimeline {
public:
    explicit PhaseTimeline(std::size_t phaseCount) : m_phaseCount(phaseCount) {}

    /// Forgets earlier marks and records the starting event on stream.
    void begin(cudaStream_t stream);
    /// Records that phase has just been queued on stream.
    void mark(std::size_t phase, cudaStream_t stream);
    /// Milliseconds per phase since begin(); waits for the last mark.
    std::vector<double> totalsMilliseconds() const;

private:
    CudaEvent& nextEvent();

    std::size_t m_phaseCount;
    std::vector<CudaEvent> m_events;
    std::vector<std::size_t> m_phaseOfMark; ///< phase ended by event k + 1
    std::size_t m_used = 0;
};

} // namespace gravlab
