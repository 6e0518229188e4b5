#pragma once
// The energy measurements of a session, newest last, for the panel's reading and for plots of the drift over time.
//
// Design note: a fixed-capacity ring buffer: the storage is allocated once, a push past capacity overwrites the
// oldest sample, and index 0 is always the oldest sample kept, so a plot walks [0, size()) in time order. A sample is
// a few doubles, so a capacity of thousands costs tens of kilobytes; measurements are O(N^2) and taken seconds apart,
// so such a history spans a long session. Every sample's drift is against the same E0: the controller clears the
// history whenever the baseline is retaken (reset, new bodies, new G or softening).
#include <cstddef>
#include <vector>

namespace gravlab {

/// One energy measurement.
struct EnergySample {
    double simulationTime = 0; ///< N-body time of the state measured
    double relativeDrift = 0;  ///< |E - E0| / |E0|, E = kinetic + potential; 0 for the sample that recorded E0
    double kineticEnergy = 0;  ///< N-body energy units
    double potentialEnergy = 0;
    double computeSeconds = 0; ///< wall-clock seconds the O(N^2) evaluation took
};

class EnergyHistory {
public:
    /// Keeps the last capacity samples; capacity must be at least 1 (std::invalid_argument otherwise).
    explicit EnergyHistory(std::size_t capacity);

    /// Appends sample, dropping the oldest one when full.
    void push(const EnergySample& sample);
    void clear();

    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_samples.size(); }
    bool empty() const { return m_size == 0; }
    /// The index-th oldest sample kept (0: the oldest); index < size().
    const EnergySample& operator[](std::size_t index) const;
    /// The newest sample; the history must not be empty.
    const EnergySample& latest() const { return (*this)[m_size - 1]; }

private:
    std::vector<EnergySample> m_samples; ///< capacity slots, allocated once
    std::size_t m_oldest = 0;            ///< slot of the oldest sample
    std::size_t m_size = 0;
};

} // namespace gravlab
