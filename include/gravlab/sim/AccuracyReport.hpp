#pragma once
// Accuracy report: how far a backend's accelerations are from the fp64 direct sum, on a sample of bodies.
//
// Design note: the report is backend-agnostic. It asks the backend for its accelerations (readAccelerations, by the
// solver and theta in params) and then for its bodies (readBodies), in that order, so that the two describe the same
// body order even if computing the forces changed it (no solver does today: the trees sort a copy of the positions). It
// draws a deterministic sample of body indices (Floyd's algorithm on a SplitMix64 stream: a pure function of N, the
// sample size and the seed), computes their fp64 direct-sum accelerations (computeAccelerationsFp64), and summarises
// the relative errors
//     e_i = |a_i - a_ref,i| / |a_ref,i|
// by nearest-rank percentiles (the p-th percentile is the smallest e with at least p % of the sample <= e), so every
// reported number is one body's actual error. A NaN acceleration counts as an infinite error; a body whose reference
// is exactly zero has error 0 when the solver also gives zero, and infinity otherwise.
// The fp64 reference (O(sample x N)) is by far the most expensive part for several thetas on the same bodies, so an
// AccuracyReference keeps it while the bodies and gravity stay the same.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

/// Sample size of `gravlab accuracy` when none is given.
inline constexpr std::size_t kDefaultAccuracySampleCount = 4096;

/// Nearest-rank order statistics of a sample of relative errors.
struct RelativeErrorStatistics {
    std::size_t sampleCount = 0;
    double median = 0;
    double percentile90 = 0;
    double percentile99 = 0;
    double max = 0;
};

/// Statistics of errors (taken by value: they are sorted). All zero for an empty sample.
RelativeErrorStatistics summarizeRelativeErrors(std::vector<double> errors);

/// min(sampleCount, bodyCount) distinct indices below bodyCount, ascending; all indices when sampleCount >= bodyCount.
std::vector<std::size_t> sampleBodyIndices(std::size_t bodyCount, std::size_t sampleCount, std::uint64_t seed);

/// |a - reference| / |reference| as defined in the design note.
double relativeAccelerationError(const double (&acceleration)[3], const double (&reference)[3]);

/// fp64 reference accelerations of a sample of bodies, kept while the bodies and gravity stay the same.
class AccuracyReference {
public:
    AccuracyReference(std::size_t sampleCount, std::uint64_t seed) : m_sampleCount(sampleCount), m_seed(seed) {}

    /// Makes the reference describe bodies under gravity; returns the milliseconds spent (0 when it already did).
    double update(const Bodies& bodies, const GravityParams& gravity);
    /// Indices of the sampled bodies, ascending.
    const std::vector<std::size_t>& sampleIndices() const { return m_indices; }
    /// Reference accelerations (with G) of the sampled bodies, in the order of sampleIndices().
    const Vec3Arrays<double>& accelerations() const { return m_accelerations; }

private:
    std::size_t m_sampleCount;
    std::uint64_t m_seed;
    Bodies m_bodies; ///< positions and masses the reference was computed for
    GravityParams m_gravity{0, 0};
    bool m_computed = false;
    std::vector<std::size_t> m_indices;
    Vec3Arrays<double> m_accelerations;
};

struct AccuracyMeasurement {
    RelativeErrorStatistics errors;
    double solverMilliseconds = 0;    ///< readAccelerations: the force evaluation (tree build included) and the copy
    double referenceMilliseconds = 0; ///< the fp64 direct sum on the sample; 0 when the reference was reused
};

/// Errors of backend's accelerations by params' solver (and theta) on the bodies it holds.
AccuracyMeasurement measureAccuracy(SimulationBackend& backend, const SimParams& params, AccuracyReference& reference);

} // namespace gravlab
