#pragma once
// How far two runs of the same initial conditions have drifted apart, sample by sample, for the Compare panel's plot
// and the CSV export.
//
// Design note: a SampleRing (fixed capacity, oldest first), so a long comparison costs a fixed few hundred kilobytes. A
// sample's energy errors are NaN when the O(N^2) energy was not measured at that sample (Comparison measures it only
// when it is cheap enough), so a plot or a CSV reader can tell "not measured" from "zero".
#include "SampleRing.hpp"

#include <cstddef>
#include <vector>

namespace gravlab {

/// One comparison of the two runs at the same step.
struct DivergenceSample {
    double simulationTime = 0; ///< N-body time of both states (they step in lockstep with the same dt)
    /// sqrt(mean over bodies of |x_A - x_B|^2), bodies matched by id, fp64; the runs' length unit.
    double rmsPositionDifference = 0;
    /// rmsPositionDifference over the half-mass radius of the main run when the comparison started (dimensionless).
    double rmsOverHalfMassRadius = 0;
    double maxPositionDifference = 0; ///< largest |x_A - x_B| of one body, the runs' length unit
    double energyErrorA = 0;          ///< |E - E0| / |E0| of the main run against its own E0; NaN: not measured
    double energyErrorB = 0;          ///< the same for the comparison run, against its own E0; NaN: not measured
};

class DivergenceHistory : public SampleRing<DivergenceSample> {
public:
    /// Keeps the last capacity samples; capacity must be at least 1 (std::invalid_argument otherwise).
    explicit DivergenceHistory(std::size_t capacity) : SampleRing(capacity, "divergence history") {}
    /// The newest sample whose energy errors were measured; null when none was.
    const DivergenceSample* latestWithEnergies() const;
};

} // namespace gravlab
