#include "device/cuda/PhaseTimeline.hpp"

#include <stdexcept>

namespace gravlab {

CudaEvent& PhaseTimeline::nextEvent() {
    if (m_used == m_events.size())
        m_events.emplace_back();
    return m_events[m_used++];
}

void PhaseTimeline::begin(cudaStream_t stream) {
    m_used = 0;
    m_phaseOfMark.clear();
    nextEvent().record(stream);
}

void PhaseTimeline::mark(std::size_t phase, cudaStream_t stream) {
    if (phase >= m_phaseCount || m_used == 0)
        throw std::logic_error("PhaseTimeline::mark: unknown phase or begin() not called");
    nextEvent().record(stream);
    m_phaseOfMark.push_back(phase);
}

std::vector<double> PhaseTimeline::totalsMilliseconds() const {
    std::vector<double> totals(m_phaseCount, 0.0);
    if (m_used < 2)
        return totals;
    m_events[m_used - 1].synchronize();
    for (std::size_t mark = 0; mark + 1 < m_used; ++mark)
        totals[m_phaseOfMark[mark]] += elapsedMilliseconds(m_events[mark], m_events[mark + 1]);
    return totals;
}

} // namespace gravlab
