// The comparison run: lockstep with the main run, its divergence against distances and energies computed here from
// the bodies of both runs (matched by id with a std::map, energies by the plain fp64 loops of EnergyReference.hpp),
// restarts, and the refusals of bad choices and of a second run that does not fit.
#include "EnergyReference.hpp"
#include "IdentityChecks.hpp"
#include "SessionTestSupport.hpp"
#include "TestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <session/Comparison.hpp>

namespace gravlab::test {
namespace {

ComparisonChoice choice(const std::string& solver, double openingAngle,
                        std::optional<std::uint32_t> orbDomainCount = std::nullopt, int substeps = 1) {
    return {.solver = solver, .openingAngle = openingAngle, .orbDomainCount = orbDomainCount, .substeps = substeps};
}

/// Energies at every sample, on a clock that never moves: the cadence must not hide a mismatch by skipping them.
ComparisonCadence everySample() {
    ComparisonCadence cadence;
    cadence.energyIntervalSeconds = 0;
    cadence.wallSeconds = [] { return 0.0; };
    return cadence;
}

/// Frames of stepsPerFrame steps of main, the comparison following each, as the window and headless loops do.
void runFrames(Simulation& main, Comparison& comparison, int frames, int stepsPerFrame) {
    for (int frame = 0; frame < frames; ++frame) {
        main.step(stepsPerFrame);
        comparison.follow(main);
    }
}

struct Reference {
    double rms = 0;
    double max = 0;
};

/// rms and largest position difference, bodies matched through a std::map of ids (not ByIdPairing).
Reference referenceDivergence(const Bodies& a, const Bodies& b) {
    std::map<std::uint64_t, std::size_t> indexInB;
    for (std::size_t j = 0; j < b.size(); ++j)
        indexInB[b.id[j]] = j;
    Reference reference;
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t j = indexInB.at(a.id[i]);
        const double square = std::pow(double(a.x[i]) - b.x[j], 2) + std::pow(double(a.y[i]) - b.y[j], 2) +
                              std::pow(double(a.z[i]) - b.z[j], 2);
        sum += square;
        reference.max = std::max(reference.max, std::sqrt(square));
    }
    reference.rms = std::sqrt(sum / double(a.size()));
    return reference;
}

TEST(Comparison, IdenticalSolversStayBitIdenticalAndReportZeroDivergence) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 300));
    main.step(3); // the comparison starts from the current state, not the initial conditions
    Comparison comparison(main, choice("direct", main.params().openingAngle), everySample());
    runFrames(main, comparison, 6, 4);

    EXPECT_EQ(comparison.run().stepCount(), 24u);
    EXPECT_EQ(comparison.run().time(), main.time());
    EXPECT_EQ(distanceById(bodiesOf(main), bodiesOf(comparison.run())).position, 0.0);
    ASSERT_EQ(comparison.history().size(), 7u); // the start and one per frame
    for (std::size_t i = 0; i < comparison.history().size(); ++i) {
        EXPECT_EQ(comparison.history()[i].rmsPositionDifference, 0.0) << "sample " << i;
        EXPECT_EQ(comparison.history()[i].maxPositionDifference, 0.0) << "sample " << i;
    }
}

TEST(Comparison, TreeAgainstDirectMatchesTheRmsOfBothRunsMatchedById) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 400));
    Comparison comparison(main, choice("tree", 0.9), everySample());
    runFrames(main, comparison, 5, 3);

    const Reference reference = referenceDivergence(bodiesOf(main), bodiesOf(comparison.run()));
    const DivergenceSample& latest = comparison.history().latest();
    EXPECT_GT(reference.rms, 0.0) << "theta 0.9 must change the forces, or this test shows nothing";
    // Both are fp64 sums of the same squares in the same order up to the matching; 1e-12 covers their rounding.
    EXPECT_NEAR(latest.rmsPositionDifference, reference.rms, 1e-12 * reference.rms);
    EXPECT_NEAR(latest.maxPositionDifference, reference.max, 1e-12 * reference.max);
    EXPECT_EQ(latest.simulationTime, main.time());
    EXPECT_NEAR(latest.rmsOverHalfMassRadius * comparison.halfMassRadius(), reference.rms, 1e-12 * reference.rms);
}

TEST(Comparison, SubstepsHalveTheTimeStepAndKeepBothRunsAtTheSameTimes) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 200));
    Comparison comparison(main, choice("direct", 0.5, std::nullopt, 2), everySample());
    runFrames(main, comparison, 3, 4);

    EXPECT_EQ(comparison.run().params().timeStep, main.params().timeStep / 2);
    EXPECT_EQ(comparison.run().stepCount(), 2 * main.stepCount());
    // 24 additions of dt / 2 against 12 of dt: equal up to a few roundings of the clock.
    EXPECT_NEAR(comparison.run().time(), main.time(), 1e-14);
    // A reference by hand: the same state stepped 24 times with dt / 2 in a simulation of its own.
    SimParams halfStep = main.params();
    halfStep.timeStep /= 2;
    Simulation reference(halfStep);
    reference.step(24);
    EXPECT_EQ(distanceById(bodiesOf(reference), bodiesOf(comparison.run())).position, 0.0);
    const Reference divergence = referenceDivergence(bodiesOf(main), bodiesOf(comparison.run()));
    EXPECT_GT(divergence.rms, 0.0) << "another dt must change the trajectories";
    EXPECT_NEAR(comparison.history().latest().rmsPositionDifference, divergence.rms, 1e-12 * divergence.rms);
    EXPECT_THROW(Comparison(main, choice("direct", 0.5, std::nullopt, 0), everySample()), InvalidParameterError);
}

TEST(Comparison, HalfMassRadiusEnclosesHalfTheMass) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = bodiesWithIdentities(501, seed);
    const double radius = halfMassRadius(bodies);
    double total = 0, inside = 0, centre[3] = {0, 0, 0};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        total += bodies.mass[i];
        centre[0] += double(bodies.mass[i]) * bodies.x[i];
        centre[1] += double(bodies.mass[i]) * bodies.y[i];
        centre[2] += double(bodies.mass[i]) * bodies.z[i];
    }
    double insideStrictly = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double r = std::hypot(bodies.x[i] - centre[0] / total, bodies.y[i] - centre[1] / total,
                                    bodies.z[i] - centre[2] / total);
        inside += r <= radius ? bodies.mass[i] : 0.0f;
        insideStrictly += r < radius ? bodies.mass[i] : 0.0f;
    }
    EXPECT_GE(inside, 0.5 * total);         // the radius reaches half the mass ...
    EXPECT_LT(insideStrictly, 0.5 * total); // ... and no smaller radius does
}

TEST(Comparison, ReorderedBodiesAreMatchedById) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 500));
    // ORB in the comparison run only: it permutes that run's bodies, while the main run keeps the scenario's order.
    Comparison comparison(main, choice("direct", 0.5, 8), everySample());
    runFrames(main, comparison, 4, 2);

    const Bodies a = bodiesOf(main);
    const Bodies b = bodiesOf(comparison.run());
    std::size_t sameIdAtSameIndex = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sameIdAtSameIndex += a.id[i] == b.id[i] ? 1 : 0;
    ASSERT_LT(sameIdAtSameIndex, a.size() / 2) << "ORB did not reorder the comparison run; the test shows nothing";

    const Reference reference = referenceDivergence(a, b);
    EXPECT_NEAR(comparison.history().latest().rmsPositionDifference, reference.rms, 1e-12 * reference.rms + 1e-300);
    // The same direct forces summed in another order differ by fp32 rounding only: far below a body's spacing, which
    // an index-by-index comparison of the permuted arrays would report.
    EXPECT_LT(reference.rms, 1e-4);
}

TEST(Comparison, EnergyErrorsAreEachRunsOwnDriftAgainstItsOwnStart) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 200);
    params.timeStep = 0.02; // a coarse step, so the drift is well above the rounding of the energies
    Simulation main(params);
    const EnergyFp64 mainStart = energyFp64(bodiesOf(main), params.gravitationalConstant, params.softeningLength);
    main.step(5);
    const EnergyFp64 comparisonStart = energyFp64(bodiesOf(main), params.gravitationalConstant, params.softeningLength);
    Comparison comparison(main, choice("tree", 1.0), everySample());
    runFrames(main, comparison, 4, 5);

    const auto drift = [&](const Simulation& run, const EnergyFp64& start) {
        const double now = energyFp64(bodiesOf(run), params.gravitationalConstant, params.softeningLength).total();
        return std::abs(now - start.total()) / std::abs(start.total());
    };
    const double expectedMain = drift(main, mainStart);
    const double expectedComparison = drift(comparison.run(), comparisonStart);
    const DivergenceSample& latest = comparison.history().latest();
    ASSERT_GT(expectedMain, 1e-9);
    // The energies differ from the reference loops by fp64 summation order (~1e-15 relative); a drift is a
    // difference of two of them, so 1e-11 absolute bounds the disagreement far below the drift itself.
    EXPECT_NEAR(latest.energyErrorA, expectedMain, 1e-11);
    EXPECT_NEAR(latest.energyErrorB, expectedComparison, 1e-11);
    EXPECT_NE(latest.energyErrorA, latest.energyErrorB); // different forces, different drifts
    // The first sample measures the state that recorded the comparison run's E0: no drift beyond rounding.
    EXPECT_NEAR(comparison.history()[0].energyErrorB, 0.0, 1e-14);
}

TEST(Comparison, EnergyIsMeasuredOnlyWhenItsIntervalHasPassed) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 100));
    double clock = 50.0;
    ComparisonCadence cadence;
    cadence.energyIntervalSeconds = 1.0;
    cadence.wallSeconds = [&clock] { return clock; };
    Comparison comparison(main, choice("tree", 0.6), cadence);
    runFrames(main, comparison, 3, 1); // no time passes: energies not measured again
    clock += 1.5;
    runFrames(main, comparison, 1, 1);
    const DivergenceHistory& history = comparison.history();
    ASSERT_EQ(history.size(), 5u);
    EXPECT_FALSE(std::isnan(history[0].energyErrorA));
    for (std::size_t i = 1; i < 4; ++i)
        EXPECT_TRUE(std::isnan(history[i].energyErrorA) && std::isnan(history[i].energyErrorB)) << "sample " << i;
    EXPECT_FALSE(std::isnan(history[4].energyErrorA) || std::isnan(history[4].energyErrorB));
    comparison.measureEnergyAtNextSample();
    runFrames(main, comparison, 1, 1);
    EXPECT_FALSE(std::isnan(comparison.history().latest().energyErrorB)) << "a request is honoured at once";
}

TEST(Comparison, FollowsTimeReversalAndRestartsWhenTheMainRunGoesBack) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 150));
    Comparison comparison(main, choice("direct", 0.5), everySample());
    runFrames(main, comparison, 3, 2);
    main.reverseTime();
    runFrames(main, comparison, 3, 2);
    EXPECT_EQ(comparison.run().timeDirection(), -1);
    EXPECT_EQ(comparison.run().time(), main.time());
    EXPECT_EQ(comparison.history().latest().rmsPositionDifference, 0.0);
    EXPECT_EQ(comparison.restarts(), 0);

    main.reset();
    comparison.follow(main);
    EXPECT_EQ(comparison.restarts(), 1);
    EXPECT_EQ(comparison.history().size(), 1u);
    EXPECT_EQ(comparison.run().time(), main.time());
    EXPECT_EQ(distanceById(bodiesOf(main), bodiesOf(comparison.run())).position, 0.0);

    SimParams softer = main.params();
    softer.softeningLength *= 2;
    main.setParams(softer);
    comparison.follow(main);
    EXPECT_EQ(comparison.restarts(), 2);
    EXPECT_EQ(comparison.run().params().softeningLength, softer.softeningLength);
}

// The window reverses between the main run's steps, and the comparison follows after both: the steps taken before the
// reversal went forward, so the comparison must take them forward before it turns, or it ends two batches behind.
TEST(Comparison, StepsTakenBeforeAReversalGoTheOldWay) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Simulation main(smallPlummer(seed, 150));
    Comparison comparison(main, choice("direct", 0.5), everySample());
    runFrames(main, comparison, 2, 2);
    main.step(3);
    main.reverseTime();
    comparison.follow(main);
    EXPECT_EQ(comparison.run().timeDirection(), -1);
    EXPECT_EQ(comparison.run().time(), main.time());
    EXPECT_EQ(comparison.history().latest().rmsPositionDifference, 0.0);
    runFrames(main, comparison, 2, 2);
    EXPECT_EQ(comparison.run().time(), main.time());
    EXPECT_EQ(comparison.history().latest().rmsPositionDifference, 0.0);
}

TEST(Comparison, RefusesAnUnknownSolverAThetaOutOfRangeAndASecondRunThatDoesNotFit) {
    Simulation main(smallPlummer(7, 64));
    try {
        Comparison comparison(main, choice("fmm-magic", 0.5), everySample());
        FAIL() << "an unknown solver was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "compare");
        EXPECT_NE(std::string(error.what()).find("solver: "), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("fmm-magic"), std::string::npos) << error.what();
    }
    try {
        Comparison comparison(main, choice("tree", 1.5), everySample());
        FAIL() << "theta 1.5 was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "compare");
        EXPECT_NE(std::string(error.what()).find("theta: "), std::string::npos) << error.what();
    }
    try {
        Comparison comparison(main, choice("direct-symmetric", 0.5), everySample());
        FAIL() << "a CUDA-only solver was accepted beside a CPU run";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "compare");
        EXPECT_NE(std::string(error.what()).find("direct-symmetric"), std::string::npos) << error.what();
    }
    struct TinyMemory final : MemorySource {
        MemoryAvailable available(bool) const override {
            MemoryAvailable available;
            available.hostBytes = 1000; // far less than 64 bodies and their solver need
            available.hostLimit = "a test's fixed amount";
            return available;
        }
    } tiny;
    EXPECT_THROW(Comparison(main, choice("tree", 0.5), everySample(), {}, tiny), InsufficientMemoryError);
}

} // namespace
} // namespace gravlab::test
