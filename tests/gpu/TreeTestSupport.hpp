#pragma once
// Shared pieces of the CUDA tree tests: parameters, the tree's accelerations with the bodies in the order they are
// returned in, and the relative error against the fp64 direct sum.
//
// Design note: the tree solver leaves the bodies in the loaded order (it works on a tree-order copy and maps results
// back through its permutation, OctreeSnapshot::treeOrder); comparisons still read the accelerations and then the
// bodies from the backend and compute the fp64 reference on what it returns, so a body scattered to the wrong place
// shows as a large error. Errors are |a_tree - a_ref| / |a_ref| per target, the measure of the tree's accuracy target
// (99th percentile <= 2e-3 at theta 0.5); percentiles are order statistics of the sample.
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"
#include "tree/cuda/TreeCudaSolver.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace gravlab::gputest {

inline SimParams treeParams(double openingAngle, const GravityParams& gravity = {1.0, 0.05}, double timeStep = 0.005) {
    SimParams params;
    params.solver = "tree";
    params.openingAngle = openingAngle;
    params.openingCriterion = OpeningCriterion::Geometric; // the tree at theta; the relative tests ask for theirs
    params.gravitationalConstant = gravity.gravitationalConstant;
    params.softeningLength = gravity.softeningLength;
    params.timeStep = timeStep;
    return params;
}

/// The backend's accelerations for params and the bodies, in the order the backend returns them.
struct OrderedAccelerations {
    Bodies bodies;
    Vec3Arrays<float> accelerations;
};

inline OrderedAccelerations treeAccelerations(CudaBackend& backend, const SimParams& params) {
    OrderedAccelerations result;
    backend.readAccelerations(params, result.accelerations);
    backend.readBodies(result.bodies);
    return result;
}

/// count distinct body indices below bodyCount, drawn uniformly.
inline std::vector<std::size_t> sampleTargets(std::size_t bodyCount, std::size_t count, std::mt19937_64& random) {
    std::vector<std::size_t> all(bodyCount);
    std::iota(all.begin(), all.end(), std::size_t{0});
    if (count >= bodyCount)
        return all;
    std::shuffle(all.begin(), all.end(), random);
    all.resize(count);
    return all;
}

/// |a[targets[t]] - reference[t]| / |reference[t]| for each target; NaN or inf results count as infinite error.
inline std::vector<double> relativeErrors(const Vec3Arrays<float>& a, std::span<const std::size_t> targets,
                                          const Vec3Arrays<double>& reference) {
    std::vector<double> errors(targets.size());
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::size_t i = targets[t];
        const double error = std::hypot(a.x[i] - reference.x[t], a.y[i] - reference.y[t], a.z[i] - reference.z[t]);
        const double size = std::hypot(reference.x[t], reference.y[t], reference.z[t]);
        const double relative = error / size;
        errors[t] = std::isfinite(relative) ? relative : INFINITY;
    }
    return errors;
}

/// The q-quantile (0 <= q <= 1) of values, nearest rank.
inline double quantile(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    return values[std::size_t(q * double(values.size() - 1) + 0.5)];
}

struct ErrorQuantiles {
    double median;
    double p99;
};

/// The CUDA tree solver's octree inside backend (created now when the backend has not used the tree yet).
inline DeviceTree& deviceTreeOf(CudaBackend& backend) {
    return dynamic_cast<TreeCudaSolver&>(backend.prepareSolver("tree")).tree();
}

/// Host copy of the backend's current octree.
inline void downloadTree(CudaBackend& backend, OctreeSnapshot& out) {
    deviceTreeOf(backend).download(out, backend.stream());
}

/// Tree accelerations of bodies against the fp64 direct sum on sampleSize random targets, with walk groups of at most
/// walkGroupCapacity bodies (0: the tree's choice by N).
inline ErrorQuantiles treeErrorQuantiles(const Bodies& bodies, const SimParams& params, std::size_t sampleSize,
                                         std::mt19937_64& random, unsigned walkGroupCapacity = 0) {
    CudaBackend backend;
    deviceTreeOf(backend).overrideWalkGroupCapacity(walkGroupCapacity);
    backend.load(bodies);
    const OrderedAccelerations tree = treeAccelerations(backend, params);
    const std::vector<std::size_t> targets = sampleTargets(tree.bodies.size(), sampleSize, random);
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(tree.bodies, params.gravity(), targets, reference);
    const std::vector<double> errors = relativeErrors(tree.accelerations, targets, reference);
    return {quantile(errors, 0.5), quantile(errors, 0.99)};
}

} // namespace gravlab::gputest
