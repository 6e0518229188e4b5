// The divergence ring buffer (see DivergenceHistory.hpp).
#include "DivergenceHistory.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {

DivergenceHistory::DivergenceHistory(std::size_t capacity) : m_samples(capacity) {
    if (capacity == 0)
        throw std::invalid_argument("divergence history: capacity 0 cannot hold a sample; allowed 1 or more");
}

void DivergenceHistory::push(const DivergenceSample& sample) {
    if (m_size < m_samples.size()) {
        m_samples[(m_oldest + m_size) % m_samples.size()] = sample;
        ++m_size;
        return;
    }
    m_samples[m_oldest] = sample; // full: the newest takes the oldest's slot
    m_oldest = (m_oldest + 1) % m_samples.size();
}

void DivergenceHistory::clear() {
    m_oldest = 0;
    m_size = 0;
}

const DivergenceSample& DivergenceHistory::operator[](std::size_t index) const {
    if (index >= m_size)
        throw std::out_of_range("divergence history: sample " + std::to_string(index) + " asked for, " +
                                std::to_string(m_size) + " kept");
    return m_samples[(m_oldest + index) % m_samples.size()];
}

const DivergenceSample* DivergenceHistory::latestWithEnergies() const {
    for (std::size_t i = m_size; i-- > 0;)
        if (!std::isnan((*this)[i].energyErrorA))
            return &(*this)[i];
    return nullptr;
}

} // namespace gravlab
