#pragma once
// The force-solver interface of the CUDA backend (private to gravlab_sim).
//
// Design note: CudaBackend owns the device bodies, the integrator, the rollback copy and the ORB domains; a
// CudaForceSolver only turns positions into accelerations on the backend's stream, created by name from the registry
// (SolverRegistration.hpp). Its phases (SolverInfo::cudaPhases) are the first entries of the backend's PhaseTimeline,
// in the registered order, so a solver marks phase k of its own list as timeline phase k. A solver that builds a
// structure (the octree) keeps it until invalidate(), for the overlay and leaf-depth colours.
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/DeviceTargets.hpp"
#include "device/cuda/PhaseTimeline.hpp"
#include "direct/cuda/CoincidenceRecord.hpp"
#include "solvers/CpuForceSolver.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gravlab {

class CudaForceSolver {
public:
    virtual ~CudaForceSolver() = default;
    /// Writes bodies.acceleration[i] = (acceleration with G, interactions body i's sum evaluated) for every body, on
    /// stream; bodyScratch (bodies.size() elements) may be used until the work on stream is done. Returns 0, or the
    /// number of bodies with a non-finite position when the solver found some, in which case nothing was written.
    virtual unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                          const ForceParams& params, cudaStream_t stream, PhaseTimeline& timeline) = 0;
    /// As computeAccelerations, for the bodies targets lists (hierarchical time steps' active bodies) against all
    /// bodies: their bodies.acceleration entries are written, the others kept (a solver may also rewrite some of the
    /// others with their current acceleration, counting them in targets.surplusBodies).
    virtual unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                            const ForceParams& params, const DeviceTargets& targets,
                                            cudaStream_t stream, PhaseTimeline& timeline) = 0;
    /// Whether computeAccelerations also writes bodies.accelerationLow, the low parts of fp64 accelerations, when the
    /// bodies carry low parts (double precision, DeviceBodies.hpp); float solvers leave it alone and return false.
    virtual bool writesAccelerationLowParts() const { return false; }
    /// The bodies changed other than by a kick: drop what was built from them.
    virtual void invalidate() {}
    /// Frees scratch sized for the old bodies (new bodies were loaded).
    virtual void release() {}
    /// Device memory held now, in bytes.
    virtual std::uint64_t allocatedBytes() const { return 0; }
    /// Cells matching query of the last evaluation's structure (cleared first). Waits for stream.
    virtual void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out,
                                  cudaStream_t stream) const {
        (void)query;
        (void)stream;
        out.clear();
    }
    /// vertices[i] = (position, leaf depth colour scalar) queued on stream; false (nothing queued) without a
    /// structure that matches the bodies.
    virtual bool writeLeafDepthVertices(const float4* positionMass, RenderVertex* vertices, std::size_t bodyCount,
                                        cudaStream_t stream) const {
        (void)positionMass, (void)vertices, (void)bodyCount, (void)stream;
        return false;
    }
    /// potential[i] = phi_i (with G) of every body by the structure of the last evaluation, opened at openingAngle,
    /// queued on stream, with treeOrderedScratch (one element per body) as scratch; false (nothing queued) without a
    /// tree that matches the bodies and whose cells were sized for openingAngle (a relative-criterion evaluation sizes
    /// them for its safety angle).
    virtual bool writePotentials(const float4* positionMass, float4* treeOrderedScratch, const GravityParams& gravity,
                                 float openingAngle, float* potential, cudaStream_t stream) const {
        (void)positionMass, (void)treeOrderedScratch, (void)gravity, (void)openingAngle, (void)potential, (void)stream;
        return false;
    }
    /// The first pair of distinct bodies at r = 0 that an evaluation with softening 0 met since the last call (the
    /// direct sums report them, CoincidenceRecord.hpp), and forgets it; nullopt without one. Waits for stream only
    /// when such an evaluation ran since the last call.
    virtual std::optional<CoincidenceRecord> takeCoincidentPair(cudaStream_t stream) {
        (void)stream;
        return std::nullopt;
    }
    /// Figures of the last evaluation for reports. Waits for stream.
    virtual std::vector<SolverStatistic> statistics(cudaStream_t stream) const {
        (void)stream;
        return {};
    }
};

} // namespace gravlab
