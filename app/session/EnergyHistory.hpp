#pragma once
// The energy measurements of a session, newest last, for the panel's reading and for plots of the drift over time.
//
// Design note: a SampleRing (fixed capacity, oldest first); measurements are O(N^2) and taken seconds apart, so a
// capacity of thousands spans a long session. Every sample's drift is against the same E0: the controller clears the
// history whenever the baseline is retaken (reset, new bodies, new G or softening).
#include "SampleRing.hpp"

#include <cstddef>

namespace gravlab {

/// One energy measurement.
struct EnergySample {
    double simulationTime = 0; ///< N-body time of the state measured
    double relativeDrift = 0;  ///< |E - E0| / |E0|, E = kinetic + potential; 0 for the sample that recorded E0
    double kineticEnergy = 0;  ///< N-body energy units
    double potentialEnergy = 0;
    double computeSeconds = 0; ///< wall-clock seconds the O(N^2) evaluation took
};

/// The energy measurements since E0 was last taken, oldest first.
class EnergyHistory : public SampleRing<EnergySample> {
public:
    /// Keeps the last capacity samples; capacity must be at least 1 (std::invalid_argument otherwise).
    explicit EnergyHistory(std::size_t capacity) : SampleRing(capacity, "energy history") {}
};

} // namespace gravlab
