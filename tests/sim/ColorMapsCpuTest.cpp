// The colour maps of per-body quantities on the CPU backend: each quantity against a value computed here from the
// state (speed, |a|, a known density, the error against the fp64 direct sum), the [0, 1] mapping against hand-computed
// values, the robust range against a sorted copy, and the fallbacks with their reasons.
#include "ColourReorderChecks.hpp"
#include "SimTestSupport.hpp"
#include "color/ForceErrorSample.hpp"
#include "color/ScalarColoring.hpp"
#include "color/ScalarColorsCpu.hpp"
#include "color/ScalarRange.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <thread>

namespace gravlab {
namespace {

SimParams paramsFor(const char* solver) {
    SimParams params;
    params.solver = solver;
    params.openingAngle = 0.7;
    params.timeStep = 0.005;
    params.softeningLength = 0.05;
    return params;
}

/// The backend's values and vertices in mode after one vertex write.
struct ColoredState {
    std::vector<float> values;
    std::vector<RenderVertex> vertices;
    ColorScale scale;
};

ColoredState colorIn(CpuBackend& backend, ColorMode mode, ColorScaleChoice choice = ColorScaleChoice::Auto) {
    backend.visuals().setColorMode(mode);
    backend.visuals().setColorScaleChoice(choice);
    ColoredState state;
    state.vertices.resize(backend.visuals().vertexCount());
    backend.visuals().writeVertices(state.vertices);
    backend.visuals().readColorValues(state.values);
    state.scale = backend.visuals().colorScale(nbodyUnits());
    return state;
}

/// The nearest-rank percentile of values, by a full sort.
float percentileBySort(std::vector<float> values, double percentile) {
    std::sort(values.begin(), values.end());
    return values[std::size_t(std::lround(percentile / 100.0 * double(values.size() - 1)))];
}

/// The mean of values at the bodies select() accepts.
template <typename Select> double meanWhere(const std::vector<float>& values, const Bodies& bodies, Select select) {
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (select(bodies.x[i], bodies.y[i], bodies.z[i])) {
            sum += values[i];
            ++count;
        }
    }
    return sum / double(count);
}

TEST(ColorMapping, LinearAndLogMatchHandComputedValues) {
    EXPECT_FLOAT_EQ(mapToColorScalar(2.5f, 1.0f, 5.0f, false), 0.375f);
    EXPECT_FLOAT_EQ(mapToColorScalar(-3.0f, 1.0f, 5.0f, false), 0.0f);
    EXPECT_FLOAT_EQ(mapToColorScalar(9.0f, 1.0f, 5.0f, false), 1.0f);
    EXPECT_FLOAT_EQ(mapToColorScalar(10.0f, 1.0f, 1000.0f, true), 1.0f / 3.0f);
    EXPECT_NEAR(mapToColorScalar(31.6227766f, 1.0f, 1000.0f, true), 0.5f, 1e-6f);
    EXPECT_FLOAT_EQ(mapToColorScalar(0.0f, 1.0f, 1000.0f, true), 0.0f);
    EXPECT_FLOAT_EQ(mapToColorScalar(5.0f, 2.0f, 2.0f, false), 0.5f);
    EXPECT_FLOAT_EQ(mapToColorScalar(std::nanf(""), 1.0f, 5.0f, false), kUnsampledColorScalar);
}

TEST(ColorMapping, RangeIsTheFirstToNinetyNinthPercentileAndIgnoresAnEscaper) {
    std::vector<float> values;
    for (int v = 1; v <= 100; ++v)
        values.push_back(float(v));
    values.back() = 1e6f; // the escaper
    values.push_back(-4.0f);
    // 101 values sorted: -4, 1, 2, ..., 99, 1e6. Ranks round(0.01 * 100) = 1 and round(0.99 * 100) = 99.
    const ScalarRange linear = percentileRange(values, false);
    EXPECT_EQ(linear.low, 1.0f);
    EXPECT_EQ(linear.high, 99.0f);
    // Log: only the 100 positive values 1..99, 1e6; ranks round(0.99) = 1 and round(98.01) = 98.
    const ScalarRange log = percentileRange(values, true);
    EXPECT_EQ(log.low, 2.0f);
    EXPECT_EQ(log.high, 99.0f);
}

TEST(ColorMapping, TicksAreDecadesOnALogScaleAndFiveStepsOnALinearOne) {
    ColorScale scale{ColorLegend::Scalar, "density", "", 0.05, 300.0, true, ""};
    // Decades 0.1, 1, 10, 100 at (log10(v) - log10(0.05)) / (log10(300) - log10(0.05)).
    const std::vector<ColorTick> decades = colorScaleTicks(scale);
    ASSERT_EQ(decades.size(), 4u);
    const double span = std::log10(300.0) - std::log10(0.05);
    for (std::size_t k = 0; k < 4; ++k) {
        const double value = std::pow(10.0, double(k) - 1.0);
        EXPECT_DOUBLE_EQ(decades[k].value, value);
        EXPECT_NEAR(decades[k].position, (std::log10(value) - std::log10(0.05)) / span, 1e-6);
    }
    scale.logarithmic = false;
    scale.low = -1.0;
    scale.high = 3.0;
    const std::vector<ColorTick> steps = colorScaleTicks(scale);
    ASSERT_EQ(steps.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_DOUBLE_EQ(steps[k].value, -1.0 + double(k));
        EXPECT_NEAR(steps[k].position, 0.25 * double(k), 1e-6);
    }
}

TEST(ColorMapsCpu, SpeedIsTheNormOfEachVelocityOverAPercentileRange) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::randomBodies(3000, random);
    CpuBackend backend;
    backend.load(bodies);
    const ColoredState state = colorIn(backend, ColorMode::Speed);
    ASSERT_EQ(state.values.size(), bodies.size());
    std::vector<float> speeds(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        speeds[i] = float(simtest::norm(simtest::velocityOf(bodies, i)));
        EXPECT_NEAR(state.values[i], speeds[i], 1e-6f * speeds[i]) << "body " << i;
    }
    EXPECT_EQ(state.scale.legend, ColorLegend::Scalar);
    EXPECT_FALSE(state.scale.logarithmic);
    EXPECT_EQ(state.scale.unit, "velocity unit");
    EXPECT_FLOAT_EQ(float(state.scale.low), percentileBySort(speeds, 1.0));
    EXPECT_FLOAT_EQ(float(state.scale.high), percentileBySort(speeds, 99.0));
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double expected =
            std::clamp((speeds[i] - state.scale.low) / (state.scale.high - state.scale.low), 0.0, 1.0);
        EXPECT_NEAR(state.vertices[i].colorScalar, expected, 1e-5) << "body " << i;
    }
}

TEST(ColorMapsCpu, SpeedsFollowTheStateAfterAStep) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    backend.load(simtest::randomBodies(500, random));
    colorIn(backend, ColorMode::Speed);
    backend.step(paramsFor("direct"), 3);
    const ColoredState state = colorIn(backend, ColorMode::Speed);
    Bodies stepped;
    backend.readBodies(stepped);
    for (std::size_t i = 0; i < stepped.size(); ++i)
        EXPECT_NEAR(state.values[i], simtest::norm(simtest::velocityOf(stepped, i)), 1e-5) << "body " << i;
}

TEST(ColorMapsCpu, AccelerationIsTheNormOfTheLastForcesAndLogByDefault) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    backend.load(simtest::variedMassPlummer(2000, random));
    const ColoredState before = colorIn(backend, ColorMode::Acceleration);
    EXPECT_EQ(before.scale.legend, ColorLegend::Components);
    EXPECT_NE(before.scale.note.find("step once"), std::string::npos) << before.scale.note;
    EXPECT_TRUE(before.values.empty());

    Vec3Arrays<float> accelerations;
    backend.readAccelerations(paramsFor("tree"), accelerations);
    const ColoredState state = colorIn(backend, ColorMode::Acceleration);
    ASSERT_EQ(state.values.size(), accelerations.size());
    for (std::size_t i = 0; i < accelerations.size(); ++i) {
        const double a = std::hypot(double(accelerations.x[i]), double(accelerations.y[i]), double(accelerations.z[i]));
        EXPECT_NEAR(state.values[i], a, 1e-5 * a) << "body " << i;
    }
    EXPECT_TRUE(state.scale.logarithmic);
    EXPECT_EQ(state.scale.unit, "velocity unit per time unit");
    EXPECT_FALSE(colorIn(backend, ColorMode::Acceleration, ColorScaleChoice::Linear).scale.logarithmic);
}

TEST(ColorMapsCpu, DensityOfTwoUniformHalvesMatchesTheirMassPerVolume) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Left half x in [-1, 0) holds 3/4 of the unit mass, right half [0, 1] a quarter: densities 0.75 / 4 and
    // 0.25 / 4 per unit volume (each half is 1 x 2 x 2).
    const std::size_t count = std::size_t{1} << 17;
    Bodies bodies = simtest::randomBodies(count, random);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (std::size_t i = 0; i < count; ++i) {
        const bool left = i % 4 != 0;
        bodies.x[i] = left ? -unit(random) : unit(random);
        bodies.mass[i] = 1.0f / float(count);
    }
    CpuBackend backend;
    backend.load(bodies);
    const ColoredState state = colorIn(backend, ColorMode::Density);
    ASSERT_EQ(state.values.size(), count);
    // Bodies away from the halves' faces, whose cells are wholly inside one half. A body sees its own cell, which holds
    // on average one body more than a random cell (Poisson counts seen from a member): the mean is rho (1 + 1 / lambda)
    // for lambda bodies per cell, about 11 in the sparse half (+9 %) and 32 in the dense one (+3 %) at 20 cells per
    // axis; the means of thousands of bodies scatter by about 1 %. So each mean lies in [0.97, 1.13] rho; a wrong
    // volume or mass factor, or cells read from the wrong body, fall outside.
    const auto inside = [](float x, float y, float z) {
        return std::abs(y) < 0.8f && std::abs(z) < 0.8f && std::abs(x) > 0.25f && std::abs(x) < 0.8f;
    };
    const double left =
        meanWhere(state.values, bodies, [&](float x, float y, float z) { return x < 0 && inside(x, y, z); });
    const double right =
        meanWhere(state.values, bodies, [&](float x, float y, float z) { return x > 0 && inside(x, y, z); });
    for (const auto& [mean, rho] : {std::pair{left, 0.75 / 4.0}, std::pair{right, 0.25 / 4.0}}) {
        EXPECT_GT(mean, 0.97 * rho);
        EXPECT_LT(mean, 1.13 * rho);
    }
    EXPECT_TRUE(state.scale.logarithmic);
    EXPECT_EQ(state.scale.unit, "mass unit / length unit^3");
    EXPECT_EQ(backend.visuals().colorScale(gadgetDefaultUnits()).unit, "1e10 Msun / kpc^3");
}

/// |a_tree - a_direct| / |a_direct| per listed body, a_direct from the fp64 oracle.
std::vector<double> oracleErrors(const Bodies& bodies, const Vec3Arrays<float>& tree, const SimParams& params,
                                 const std::vector<std::size_t>& targets) {
    Vec3Arrays<double> direct;
    computeAccelerationsFp64(bodies, params.gravity(), targets, direct);
    std::vector<double> errors;
    for (std::size_t k = 0; k < targets.size(); ++k) {
        const std::size_t i = targets[k];
        const double reference = std::hypot(direct.x[k], direct.y[k], direct.z[k]);
        errors.push_back(std::hypot(tree.x[i] - direct.x[k], tree.y[i] - direct.y[k], tree.z[i] - direct.z[k]) /
                         reference);
    }
    return errors;
}

TEST(ColorMapsCpu, ForceErrorOfEveryBodyMatchesTheFp64DirectSum) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::variedMassPlummer(3000, random);
    CpuBackend backend;
    backend.load(bodies);
    const SimParams params = paramsFor("tree");
    Vec3Arrays<float> tree;
    backend.readAccelerations(params, tree);
    const ColoredState state = colorIn(backend, ColorMode::ForceError);
    ASSERT_EQ(state.values.size(), bodies.size());
    std::vector<std::size_t> all(bodies.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const std::vector<double> expected = oracleErrors(bodies, tree, params, all);
    // Both references sum in double over the same float positions; the errors (1e-4 to 1e-2 at theta 0.7) agree to
    // float rounding.
    for (std::size_t i = 0; i < bodies.size(); ++i)
        EXPECT_NEAR(state.values[i], expected[i], 1e-5 * expected[i] + 1e-9) << "body " << i;
    EXPECT_NE(state.scale.note.find("all 3000 bodies"), std::string::npos) << state.scale.note;
    EXPECT_TRUE(state.scale.logarithmic);
    EXPECT_EQ(state.scale.unit, "");
}

TEST(ColorMapsCpu, ForceErrorAboveTheLimitChecksADeterministicSampleAndGreysTheRest) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = kForceErrorAllBodiesLimitCpu + 4000;
    const Bodies bodies = simtest::variedMassPlummer(count, random);
    CpuBackend backend;
    backend.load(bodies);
    const SimParams params = paramsFor("tree");
    Vec3Arrays<float> tree;
    backend.readAccelerations(params, tree);
    const ColoredState state = colorIn(backend, ColorMode::ForceError);
    // L^2 / N bodies, every (N / S)-th one.
    const std::size_t sampled = kForceErrorAllBodiesLimitCpu * kForceErrorAllBodiesLimitCpu / count;
    std::vector<std::size_t> checkedHere;
    for (std::size_t k = 0; k < sampled; k += 97)
        checkedHere.push_back(k * count / sampled);
    const std::vector<double> expected = oracleErrors(bodies, tree, params, checkedHere);
    for (std::size_t k = 0; k < checkedHere.size(); ++k)
        EXPECT_NEAR(state.values[checkedHere[k]], expected[k], 1e-5 * expected[k] + 1e-9);
    const auto withValue = std::count_if(state.values.begin(), state.values.end(), [](float v) { return v == v; });
    EXPECT_EQ(std::size_t(withValue), sampled);
    for (std::size_t i = 0; i < count; ++i) {
        if (std::isnan(state.values[i])) {
            ASSERT_EQ(state.vertices[i].colorScalar, kUnsampledColorScalar) << "body " << i;
        }
    }
    EXPECT_NE(state.scale.note.find("sampled " + std::to_string(sampled)), std::string::npos) << state.scale.note;
}

TEST(ColorMapsCpu, ACheapForceErrorMapFollowsEveryState) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    backend.load(simtest::variedMassPlummer(300, random));
    const SimParams params = paramsFor("tree");
    backend.step(params, 1);
    const auto mapStart = std::chrono::steady_clock::now();
    const ColoredState first = colorIn(backend, ColorMode::ForceError);
    const std::chrono::duration<double> mapCost = std::chrono::steady_clock::now() - mapStart;
    backend.step(params, 1);
    // The refresh waits 4 times the map's own cost (measured inside colorIn, so at most mapCost): about a millisecond
    // here, but a loaded machine may stretch it, hence the wait follows what this run measured.
    std::this_thread::sleep_for(
        std::chrono::duration<double>(std::min(4.0 * mapCost.count(), kForceErrorRefreshSeconds) + 0.01));
    const ColoredState next = colorIn(backend, ColorMode::ForceError);
    EXPECT_NE(next.values, first.values);
    EXPECT_EQ(next.scale.note.find("from an earlier state"), std::string::npos) << next.scale.note;
}

// A force-error map is reused for a while across states, during which ORB may permute the bodies: each body must
// still show its own error. The same bodies in reverse order, the map reused (the same state version): colour by
// colour, every body's is the one it had.
TEST(ColorMapsCpu, AReusedForceErrorMapFollowsItsBodiesThroughAReorder) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = simtest::variedMassPlummer(2000, random);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies.id[i] = 1000 + 3 * i;
    const SimParams params = paramsFor("tree");
    CpuBackend backend;
    backend.load(bodies);
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(params, accelerations);
    ScalarColorsCpu colors;
    colors.coloring().setMode(ColorMode::ForceError);
    const GravityParams gravity = params.gravity();
    const SolverInfo& tree = findSolver("tree");
    std::vector<RenderVertex> before(bodies.size()), after(bodies.size());
    colors.write({bodies, &accelerations, gravity, &tree, 7, params.openingAngle}, before);

    Bodies reversed = bodies;
    Vec3Arrays<float> reversedAccelerations = accelerations;
    for (std::vector<float>* values : {&reversed.x, &reversed.y, &reversed.z, &reversed.vx, &reversed.vy, &reversed.vz,
                                       &reversed.mass, &reversed.colorKey, &reversedAccelerations.x,
                                       &reversedAccelerations.y, &reversedAccelerations.z})
        std::reverse(values->begin(), values->end());
    std::reverse(reversed.id.begin(), reversed.id.end());
    std::reverse(reversed.component.begin(), reversed.component.end());
    colors.write({reversed, &reversedAccelerations, gravity, &tree, 7, params.openingAngle}, after);
    test::expectColoursFollowTheReversal(before, after);
}

TEST(ScalarColoring, AnExpensiveForceErrorMapWaitsUntilHalfASecondHasPassed) {
    ScalarColoring coloring;
    coloring.setMode(ColorMode::ForceError);
    coloring.computingValues();
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // a map costing 0.2 s: 4 x 0.2 s exceeds 0.5 s
    coloring.valuesComputed(1, 100, {1e-3f, 2e-3f}, "");
    EXPECT_FALSE(coloring.valuesStale(1, 100)) << "the same state";
    EXPECT_FALSE(coloring.valuesStale(2, 100)) << "a new state right after the map";
    EXPECT_TRUE(coloring.valuesStale(1, 101)) << "another body count never waits";
    std::this_thread::sleep_for(std::chrono::duration<double>(kForceErrorRefreshSeconds + 0.05));
    EXPECT_TRUE(coloring.valuesStale(2, 100));
    coloring.setMode(ColorMode::Speed);
    EXPECT_TRUE(coloring.valuesStale(1, 100)) << "another mode";
}

// The potential map is the tree's potential at the last evaluation's theta, G and softening, whatever solver stepped:
// against a pair sum computed here in long double, the relative errors are the tree's: the 99th percentile under 1e-3
// and none above 5e-3 (a seed put one body at 1.007e-3, so a bound on every body at 1e-3 was too tight).
TEST(ColorMapsCpu, PotentialOfEveryBodyMatchesAPairSumWithinTheTreesError) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::variedMassPlummer(1500, random);
    CpuBackend backend;
    backend.load(bodies);
    const SimParams params = paramsFor("direct");
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(params, accelerations);
    const ColoredState state = colorIn(backend, ColorMode::Potential);
    ASSERT_EQ(state.values.size(), bodies.size()) << state.scale.note;
    EXPECT_EQ(state.scale.unit, "(velocity unit)^2");
    const long double eps2 = (long double)params.softeningLength * params.softeningLength;
    std::vector<float> errors;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        long double phi = 0;
        for (std::size_t j = 0; j < bodies.size(); ++j) {
            if (j == i)
                continue;
            const long double dx = bodies.x[j] - (long double)bodies.x[i], dy = bodies.y[j] - (long double)bodies.y[i],
                              dz = bodies.z[j] - (long double)bodies.z[i];
            phi -= bodies.mass[j] / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
        }
        phi *= params.gravitationalConstant;
        const double error = std::abs(state.values[i] - double(phi)) / std::abs(double(phi));
        ASSERT_LT(error, 5e-3) << "body " << i;
        errors.push_back(float(error));
    }
    EXPECT_LT(percentileBySort(errors, 99.0), 1e-3);
}

TEST(ColorMapsCpu, ExactSolverFallsBackToComponentsWithAReason) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::variedMassPlummer(400, random);
    CpuBackend backend;
    backend.load(bodies);
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(paramsFor("direct"), accelerations);
    for (const ColorMode mode : {ColorMode::ForceError}) {
        const ColoredState state = colorIn(backend, mode);
        EXPECT_EQ(state.scale.legend, ColorLegend::Components);
        EXPECT_FALSE(state.scale.note.empty());
        EXPECT_TRUE(state.values.empty());
        for (std::size_t i = 0; i < bodies.size(); ++i)
            ASSERT_EQ(state.vertices[i].colorScalar, bodies.colorKey[i]);
    }
    EXPECT_NE(colorIn(backend, ColorMode::ForceError).scale.note.find("exact solver 'direct'"), std::string::npos);
}

} // namespace
} // namespace gravlab
