#pragma once
// Helpers for the octree tests: clustered inputs, coincident bodies, fp64 recomputation of a cell's moments and
// sampled relative force errors.
//
// Design note: the cell moments are recomputed here from the bodies the test finds under a cell by following child
// links down to the leaves (not from the cell's body range, which is the tree's own bookkeeping), in fp64 and without
// the parallel-axis shortcut the summary uses. Percentiles are plain nearest-rank on a sorted copy, written here
// again rather than taken from AccuracyReport, so a mistake there cannot hide one here.
#include "SimTestSupport.hpp"
#include "tree/OctreeCpu.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <vector>

namespace gravlab::treetest {

using simtest::Vec3;

/// Original indices of the bodies under cell, found through the child links.
inline void collectBodiesBelow(const OctreeCpu& tree, std::size_t cell, std::vector<std::size_t>& out) {
    const OctreeCell& c = tree.cells()[cell];
    if (c.isLeaf()) {
        for (std::uint32_t slot = c.firstBody; slot < c.firstBody + c.bodyCount; ++slot)
            out.push_back(tree.bodyOrder()[slot]);
        return;
    }
    for (std::int32_t child = c.firstChild; child < c.firstChild + c.childCount; ++child)
        collectBodiesBelow(tree, std::size_t(child), out);
}

struct MomentsFp64 {
    double mass = 0;
    Vec3 centerOfMass{};
    double quadrupole[3][3] = {}; ///< traceless, about the centre of mass
    double secondMomentTrace = 0; ///< sum m |x - com|^2: the scale of the quadrupole's entries
};

inline MomentsFp64 momentsOf(const Bodies& bodies, const std::vector<std::size_t>& members) {
    MomentsFp64 result;
    Vec3 weighted{};
    for (const std::size_t i : members) {
        result.mass += bodies.mass[i];
        weighted = simtest::add(weighted, simtest::scale(simtest::positionOf(bodies, i), bodies.mass[i]));
    }
    result.centerOfMass = simtest::scale(weighted, 1.0 / result.mass);
    for (const std::size_t i : members) {
        const Vec3 x = simtest::sub(simtest::positionOf(bodies, i), result.centerOfMass);
        const double x2 = simtest::dot(x, x);
        result.secondMomentTrace += bodies.mass[i] * x2;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                result.quadrupole[a][b] += bodies.mass[i] * (3 * x[a] * x[b] - (a == b ? x2 : 0.0));
    }
    return result;
}

/// Nearest-rank percentile (percent in 1..100) of values.
inline double percentile(std::vector<double> values, int percent) {
    std::sort(values.begin(), values.end());
    const std::size_t rank = std::max<std::size_t>(1, (std::size_t(percent) * values.size() + 99) / 100);
    return values[rank - 1];
}

/// |a_i - ref_k| / |ref_k| for the sampled bodies targets[k].
inline std::vector<double> relativeErrors(const Vec3Arrays<float>& accelerations, const Vec3Arrays<double>& reference,
                                          const std::vector<std::size_t>& targets) {
    std::vector<double> errors;
    for (std::size_t k = 0; k < targets.size(); ++k) {
        const std::size_t i = targets[k];
        const Vec3 exact{reference.x[k], reference.y[k], reference.z[k]};
        const Vec3 got{accelerations.x[i], accelerations.y[i], accelerations.z[i]};
        errors.push_back(simtest::norm(simtest::sub(got, exact)) / simtest::norm(exact));
    }
    return errors;
}

/// count distinct indices below bodyCount drawn with the test's own generator.
inline std::vector<std::size_t> randomTargets(std::size_t bodyCount, std::size_t count, std::mt19937_64& random) {
    std::vector<std::size_t> all(bodyCount);
    for (std::size_t i = 0; i < bodyCount; ++i)
        all[i] = i;
    std::shuffle(all.begin(), all.end(), random);
    all.resize(std::min(count, bodyCount));
    return all;
}

} // namespace gravlab::treetest
