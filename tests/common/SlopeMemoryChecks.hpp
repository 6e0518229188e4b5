#pragma once
// Whether the symmetric level choice's remembered slopes survive from one base step to the next, shared by the CPU and
// GPU tests: a backend must keep them across symmetric steps (the choice is pointless otherwise) and drop them after
// any step that does not keep them current (the start's choice, fixed steps), whose stale slopes would pick levels
// from accelerations long gone.
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstddef>
#include <functional>
#include <gtest/gtest.h>

namespace gravlab::test {

/// From start, `stepped` takes one symmetric base step, then `between`, then the symmetric step `last`. Returns whether
/// that last step read slopes, i.e. whether it differs from the same step taken by fresh from the state before it
/// loaded anew (a load has no slopes). The solver must be deterministic, so that fresh's first evaluation gives the
/// very accelerations stepped holds. The slopes move a level only for bodies near a level's bound: with 600 Plummer
/// bodies a quarter of the seeds moved none; the tests take 6,000.
inline bool symmetricStepReadsSlopesAfter(SimulationBackend& stepped, SimulationBackend& fresh, const Bodies& start,
                                          const SimParams& symmetric,
                                          const std::function<void(SimulationBackend&)>& between,
                                          const SimParams& last) {
    stepped.load(start);
    stepped.step(symmetric, 1);
    between(stepped);
    Bodies before;
    stepped.readBodies(before);
    stepped.step(last, 1);
    fresh.load(before);
    fresh.step(last, 1);
    Bodies withMemory;
    Bodies without;
    stepped.readBodies(withMemory);
    fresh.readBodies(without);
    for (std::size_t i = 0; i < without.size(); ++i)
        if (withMemory.vx[i] != without.vx[i] || withMemory.vy[i] != without.vy[i] || withMemory.vz[i] != without.vz[i])
            return true;
    return false;
}

/// The cases on fresh backends from makeBackend (a callable returning a std::unique_ptr<SimulationBackend>): a
/// symmetric step reads the slopes a symmetric step left, and not those left before a step under the start's choice,
/// a fixed step with ORB domains (which also permute the bodies), a symmetric step under other forces (G doubled: the
/// step back to the original G starts from accelerations of the other law, so its slopes would be meaningless), or a
/// read of the accelerations under other forces followed by a step under those (the read evaluates them, so the step
/// starts from accelerations of a law the slopes were not taken under).
template <typename MakeBackend>
void expectSlopesKeptOnlyAcrossSymmetricSteps(MakeBackend makeBackend, const Bodies& start,
                                              const SimParams& symmetric) {
    SimParams atStart = symmetric;
    atStart.timeSteps.levelChoice = LevelChoice::Start;
    SimParams fixed = symmetric;
    fixed.timeSteps.mode = TimeStepMode::Fixed;
    fixed.orb = {16, OrbBalance::Count, 1, 1.25};
    SimParams otherForces = symmetric;
    otherForces.gravitationalConstant *= 2.0;
    const auto readsSlopesAfter = [&](const std::function<void(SimulationBackend&)>& between, const SimParams& last) {
        const auto stepped = makeBackend();
        const auto fresh = makeBackend();
        return symmetricStepReadsSlopesAfter(*stepped, *fresh, start, symmetric, between, last);
    };
    const auto stepUnder = [](const SimParams& params) {
        return [params](SimulationBackend& backend) { backend.step(params, 1); };
    };
    EXPECT_TRUE(readsSlopesAfter(stepUnder(symmetric), symmetric)) << "slopes kept from one symmetric step to the next";
    EXPECT_FALSE(readsSlopesAfter(stepUnder(atStart), symmetric)) << "slopes dropped by a step under the start's choice";
    EXPECT_FALSE(readsSlopesAfter(stepUnder(fixed), symmetric)) << "slopes dropped by a fixed step";
    EXPECT_FALSE(readsSlopesAfter(stepUnder(otherForces), symmetric))
        << "slopes dropped when the forces change (twice G, then back)";
    const auto readUnderOtherForces = [&otherForces](SimulationBackend& backend) {
        Vec3Arrays<float> accelerations;
        backend.readAccelerations(otherForces, accelerations);
    };
    EXPECT_FALSE(readsSlopesAfter(readUnderOtherForces, otherForces))
        << "slopes dropped when accelerations are read under other forces (twice G) and stepped with";
}

} // namespace gravlab::test
