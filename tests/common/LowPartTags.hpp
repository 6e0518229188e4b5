#pragma once
// Low parts (Precision.hpp) that name their body, shared by the CPU and GPU reorder tests: each body's six low parts
// are a function of its id that no other body shares, so after any reorder the low parts found beside an id must be
// that id's. Tags are tiny next to the float parts (1e-10 per id), like real low parts.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Precision.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <array>
#include <gtest/gtest.h>
#include <limits>

namespace gravlab::test {

inline std::array<float, 6> lowTagOf(std::uint64_t id) {
    const auto base = float(id + 1) * 1e-10f;
    return {base, 2 * base, 3 * base, -base, -2 * base, -3 * base};
}

/// Converts bodies to double precision and gives every body its id's tags.
inline void tagLowParts(Bodies& bodies) {
    convertPrecision(bodies, Precision::Double);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::array<float, 6> tag = lowTagOf(bodies.id[i]);
        bodies.xLow[i] = tag[0], bodies.yLow[i] = tag[1], bodies.zLow[i] = tag[2];
        bodies.vxLow[i] = tag[3], bodies.vyLow[i] = tag[4], bodies.vzLow[i] = tag[5];
    }
}

/// Whether every body carries its own id's tags (a failure names the first body that does not).
inline ::testing::AssertionResult tagsFollowIds(const Bodies& bodies) {
    if (!bodies.consistent() || !bodies.hasLowParts())
        return ::testing::AssertionFailure()
               << "the bodies lost their low parts (" << bodies.xLow.size() << " for " << bodies.size() << " bodies)";
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::array<float, 6> found{bodies.xLow[i],  bodies.yLow[i],  bodies.zLow[i],
                                         bodies.vxLow[i], bodies.vyLow[i], bodies.vzLow[i]};
        if (found != lowTagOf(bodies.id[i]))
            return ::testing::AssertionFailure()
                   << "body at " << i << " with id " << bodies.id[i] << " carries another body's low parts";
    }
    return ::testing::AssertionSuccess();
}

/// Tags bodies (which must carry ids), sends body 7 off to overflow in the first drift, and checks that a double
/// precision step of backend throws NonFiniteStateError and leaves the loaded state, low parts included, behind.
inline void expectRollbackRestoresLowParts(SimulationBackend& backend, Bodies bodies) {
    tagLowParts(bodies);
    bodies.x[7] = std::numeric_limits<float>::max(); // the drift overflows: the step fails and is rolled back
    bodies.vx[7] = std::numeric_limits<float>::max();
    backend.load(bodies);
    SimParams params;
    params.solver = "direct-fp64";
    params.precision = Precision::Double;
    params.timeStep = 0.5;
    EXPECT_THROW(backend.step(params, 3), NonFiniteStateError);
    Bodies restored;
    backend.readBodies(restored);
    EXPECT_TRUE(tagsFollowIds(restored));
    EXPECT_EQ(restored.x, bodies.x);
}

} // namespace gravlab::test
