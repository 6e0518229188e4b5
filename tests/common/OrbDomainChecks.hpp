#pragma once
// Checks that ORB cells describe a body set, recomputed from the bodies and the boxes (never from the build's own
// bookkeeping), shared by the CPU and GPU migration tests: domain ranges tile [0, N) in domain order, every cell's
// range joins its children's, children tile their parent's box with one shared cut face, and every body lies in its
// leaf's closed box. Bodies carry their identity in colorKey (0, 1, ..., N - 1, exact in float below 2^24), so
// "nothing lost or duplicated" is a check that the keys are a permutation.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gravlab::test {

/// colorKey[i] = i for every body: the identity the checks below follow.
inline void labelBodiesByIndex(Bodies& bodies) {
    for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies.colorKey[i] = float(i);
}

/// Whether the colour keys are exactly 0 .. N - 1 in some order.
inline ::testing::AssertionResult labelsArePermutation(const Bodies& bodies) {
    std::vector<int> seen(bodies.size(), 0);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const float label = bodies.colorKey[i];
        const auto id = std::size_t(label);
        if (!(label >= 0) || float(id) != label || id >= bodies.size())
            return ::testing::AssertionFailure() << "slot " << i << " holds label " << label << ", not a body id";
        if (++seen[id] > 1)
            return ::testing::AssertionFailure() << "body " << id << " is duplicated (second copy in slot " << i << ")";
    }
    return ::testing::AssertionSuccess(); // N slots, no label twice: each of the N ids appears exactly once
}

inline float coordinateOf(const Bodies& bodies, int axis, std::size_t i) {
    return axis == 0 ? bodies.x[i] : axis == 1 ? bodies.y[i] : bodies.z[i];
}

inline ::testing::AssertionResult cellsDescribeBodies(const std::vector<OrbCell>& cells, const Bodies& bodies) {
    if (cells.empty() || cells[0].begin != 0 || cells[0].end != bodies.size())
        return ::testing::AssertionFailure() << "the root does not hold the " << bodies.size() << " bodies";
    std::vector<const OrbCell*> leafOfDomain(cells[0].domainCount, nullptr);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const OrbCell& cell = cells[c];
        if (cell.isLeaf()) {
            if (cell.domainCount != 1 || cell.firstDomain >= leafOfDomain.size() || leafOfDomain[cell.firstDomain])
                return ::testing::AssertionFailure() << "leaf " << c << " has a bad or repeated domain";
            leafOfDomain[cell.firstDomain] = &cell;
            continue;
        }
        const OrbCell& left = cells.at(std::size_t(cell.leftChild));
        const OrbCell& right = cells.at(std::size_t(cell.leftChild) + 1);
        if (left.begin != cell.begin || left.end != right.begin || right.end != cell.end)
            return ::testing::AssertionFailure() << "cell " << c << "'s children do not split its range";
        for (int axis = 0; axis < 3; ++axis) {
            const bool cutHere = axis == cell.cutAxis;
            if (left.lower[axis] != cell.lower[axis] || right.upper[axis] != cell.upper[axis] ||
                (cutHere ? left.upper[axis] != right.lower[axis]
                         : (left.upper[axis] != cell.upper[axis] || right.lower[axis] != cell.lower[axis])))
                return ::testing::AssertionFailure() << "cell " << c << "'s children do not tile it on axis " << axis;
        }
    }
    std::uint32_t next = 0;
    for (std::size_t domain = 0; domain < leafOfDomain.size(); ++domain) {
        const OrbCell* leaf = leafOfDomain[domain];
        if (!leaf || leaf->begin != next)
            return ::testing::AssertionFailure() << "domain " << domain << " is missing or not where domain "
                                                 << domain - 1 << " ends";
        next = leaf->end;
        for (std::uint32_t i = leaf->begin; i < leaf->end; ++i)
            for (int axis = 0; axis < 3; ++axis) {
                const float c = coordinateOf(bodies, axis, i);
                if (c < leaf->lower[axis] || c > leaf->upper[axis])
                    return ::testing::AssertionFailure()
                           << "body in slot " << i << " lies outside domain " << domain << " on axis " << axis << ": "
                           << c << " not in [" << leaf->lower[axis] << ", " << leaf->upper[axis] << "]";
            }
    }
    return ::testing::AssertionSuccess();
}

/// Positions indexed by label (x, y, z of body 0, then body 1, ...), to compare runs whose body orders differ.
inline std::vector<float> positionsByLabel(const Bodies& bodies) {
    std::vector<float> out(3 * bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const auto id = std::size_t(bodies.colorKey[i]);
        out[3 * id] = bodies.x[i];
        out[3 * id + 1] = bodies.y[i];
        out[3 * id + 2] = bodies.z[i];
    }
    return out;
}

/// Steps `withOrb` (params.orb on) and `without` (ORB off), both loaded with the same labelled bodies, stepCount
/// times; after every step up to 10 and every checkEvery-th step after, the labels must be a permutation and the cells
/// must describe the bodies. Then the trajectories must agree exactly: with the tree solver the forces depend on
/// positions alone, not on the array order ORB gives the bodies. Returns the bodies migrated over the run.
inline std::uint64_t expectDomainsKeepEveryBodyOnce(SimulationBackend& withOrb, SimulationBackend& without,
                                                    const SimParams& params, int stepCount, int checkEvery) {
    SimParams plain = params;
    plain.orb.domainCount = 0;
    Bodies state;
    std::vector<OrbCell> cells;
    std::uint64_t migrated = 0;
    for (int step = 1; step <= stepCount; ++step) {
        withOrb.step(params, 1);
        migrated += withOrb.visuals().orbStatus().migratedLastStep;
        if (step % checkEvery != 0 && step > 10)
            continue;
        withOrb.readBodies(state);
        withOrb.visuals().collectOrbCells(cells);
        EXPECT_TRUE(labelsArePermutation(state)) << "after step " << step;
        EXPECT_TRUE(cellsDescribeBodies(cells, state)) << "after step " << step;
        if (::testing::Test::HasFailure())
            return migrated;
    }
    without.step(plain, stepCount);
    Bodies reference;
    without.readBodies(reference);
    EXPECT_EQ(positionsByLabel(state), positionsByLabel(reference));
    return migrated;
}

} // namespace gravlab::test
