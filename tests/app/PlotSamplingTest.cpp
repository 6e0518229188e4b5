// The plots' time series: values against diagnostics and Lagrangian radii computed in the test from the bodies
// (computeDiagnosticsCpu, radii sorted here), the tree method, cadence, pause, reset, the ring's capacity, and the
// CSV read back by a parser written here.
#include "SessionTestSupport.hpp"
#include "TestSupport.hpp"
#include "session/DiagnosticsCsv.hpp"

#include <gravlab/sim/Diagnostics.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace gravlab::test {
namespace {

SimParams smallRun(std::uint64_t seed, const char* solver) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 300;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.timeStep = 0.01;
    params.solver = solver;
    return params;
}

SessionSettings sampleEvery(std::uint64_t steps) {
    SessionSettings settings;
    settings.autoRefreshEnergy = false;
    settings.plots.everySteps = steps;
    return settings;
}

double norm(const std::array<double, 3>& v) {
    return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/// The radius enclosing fraction of the mass about the centre of mass, by sorting distances here.
double radiusEnclosing(const Bodies& bodies, double fraction) {
    double mass = 0, cx = 0, cy = 0, cz = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        mass += bodies.mass[i];
        cx += double(bodies.mass[i]) * bodies.x[i];
        cy += double(bodies.mass[i]) * bodies.y[i];
        cz += double(bodies.mass[i]) * bodies.z[i];
    }
    std::vector<std::pair<double, double>> radii;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        radii.emplace_back(std::hypot(bodies.x[i] - cx / mass, bodies.y[i] - cy / mass, bodies.z[i] - cz / mass),
                           bodies.mass[i]);
    std::sort(radii.begin(), radii.end());
    double enclosed = 0;
    for (const auto& [radius, m] : radii)
        if ((enclosed += m) >= fraction * mass * (1 - 1e-12))
            return radius;
    return radii.back().first;
}

TEST(PlotSampling, SamplesMatchDiagnosticsComputedFromTheBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const SimParams params = smallRun(seed, "direct");
    CountedSession session(params, sampleEvery(1));
    const GravityParams gravity = params.gravity();
    const Bodies initialBodies = session.bodies();
    const Diagnostics initial = computeDiagnosticsCpu(initialBodies, gravity);
    for (int frame = 0; frame < 5; ++frame)
        session.controller.advanceFrame();
    const DiagnosticsHistory& history = session.controller.plotHistory();
    ASSERT_EQ(history.size(), 6u) << "the baseline and one sample per step";
    const DiagnosticsSample& sample = history.latest();
    const Bodies bodies = session.bodies();
    const Diagnostics now = computeDiagnosticsCpu(bodies, gravity);
    EXPECT_EQ(sample.diagnostics.potentialMethod, PotentialMethod::DirectFp64) << "N = 300: the direct sum is cheap";
    EXPECT_DOUBLE_EQ(sample.simulationTime, 5 * params.timeStep);
    EXPECT_NEAR(sample.relativeEnergyError,
                std::abs(now.totalEnergy() - initial.totalEnergy()) / std::abs(initial.totalEnergy()), 1e-12);
    EXPECT_NEAR(sample.virialRatio, 2 * now.kineticEnergy / std::abs(now.potentialEnergy), 1e-12);
    double mass = 0;
    for (const float m : bodies.mass)
        mass += m;
    const double momentumScale = std::sqrt(mass * (2 * initial.kineticEnergy + std::abs(initial.potentialEnergy)));
    const std::array<double, 3> dp{now.linearMomentum[0] - initial.linearMomentum[0],
                                   now.linearMomentum[1] - initial.linearMomentum[1],
                                   now.linearMomentum[2] - initial.linearMomentum[2]};
    EXPECT_NEAR(sample.momentumDrift, norm(dp) / momentumScale, 1e-12);
    const std::array<double, 3> dl{now.angularMomentum[0] - initial.angularMomentum[0],
                                   now.angularMomentum[1] - initial.angularMomentum[1],
                                   now.angularMomentum[2] - initial.angularMomentum[2]};
    EXPECT_NEAR(sample.angularMomentumDrift, norm(dl) / norm(initial.angularMomentum),
                1e-9 * std::max(1.0, sample.angularMomentumDrift));
    for (std::size_t f = 0; f < kPlotMassFractions.size(); ++f)
        EXPECT_NEAR(sample.lagrangianRadii[f], radiusEnclosing(bodies, kPlotMassFractions[f]), 1e-6);
    EXPECT_FALSE(sample.stepTimings.empty());
    EXPECT_GT(sample.relativeEnergyError, 0.0) << "a float integration drifts a little";
}

TEST(PlotSampling, TreeSolverPlotsTheTreePotential) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const SimParams params = smallRun(seed, "tree");
    CountedSession session(params, sampleEvery(2));
    session.controller.advanceFrame();
    session.controller.advanceFrame();
    const DiagnosticsSample& sample = session.controller.plotHistory().latest();
    EXPECT_EQ(sample.diagnostics.potentialMethod, PotentialMethod::Tree);
    EXPECT_EQ(describePotentialMethod(sample.diagnostics), "tree, theta 0.5");
    const Diagnostics direct = computeDiagnosticsCpu(session.bodies(), params.gravity());
    // Theta 0.5: the tree's W is within 1e-3 of the pair sum (TreePotentialTest justifies the bound).
    EXPECT_NEAR(sample.diagnostics.potentialEnergy, direct.potentialEnergy, 1e-3 * std::abs(direct.potentialEnergy));
}

TEST(PlotSampling, StepCadencePauseAndReset) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallRun(seed, "direct"), sampleEvery(3));
    for (int frame = 0; frame < 7; ++frame)
        session.controller.advanceFrame();
    const DiagnosticsHistory& history = session.controller.plotHistory();
    ASSERT_EQ(history.size(), 3u) << "steps 0, 3 and 6";
    EXPECT_EQ(history[1].step, 3u);
    EXPECT_EQ(history[2].step, 6u);

    session.controller.setPaused(true);
    for (int frame = 0; frame < 10; ++frame) {
        session.clockSeconds += 1.0;
        session.controller.advanceFrame();
    }
    EXPECT_EQ(history.size(), 3u) << "a paused session adds no samples";
    session.controller.setPaused(false);
    for (int frame = 0; frame < 3; ++frame)
        session.controller.advanceFrame();
    ASSERT_EQ(history.size(), 4u) << "resuming continues the series";
    EXPECT_EQ(history.latest().step, 9u);
    EXPECT_EQ(history.baseline()->step, 0u) << "against the same baseline";

    session.controller.reset();
    ASSERT_EQ(history.size(), 1u) << "reset restarts from the initial state";
    EXPECT_EQ(history.latest().step, 0u);
    EXPECT_EQ(history.latest().relativeEnergyError, 0.0);
}

TEST(PlotSampling, WallClockCadence) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SessionSettings settings = sampleEvery(0);
    settings.plots.intervalSeconds = 0.25;
    CountedSession session(smallRun(seed, "direct"), settings);
    const DiagnosticsHistory& history = session.controller.plotHistory();
    ASSERT_EQ(history.size(), 1u);
    session.clockSeconds += 0.1;
    session.controller.advanceFrame();
    EXPECT_EQ(history.size(), 1u) << "0.1 s after the last sample: not due";
    session.clockSeconds += 0.2;
    session.controller.advanceFrame();
    EXPECT_EQ(history.size(), 2u) << "0.3 s after: due";
    session.controller.advanceFrame();
    EXPECT_EQ(history.size(), 2u) << "the clock stood still";

    // A sample that takes 0.5 s spaces the next ones 10 x 0.5 s apart.
    session.calls.onDiagnostics = [&session] { session.clockSeconds += 0.5; };
    session.controller.samplePlotsNow();
    ASSERT_EQ(history.size(), 3u);
    session.clockSeconds += 4.0;
    session.controller.advanceFrame();
    EXPECT_EQ(history.size(), 3u) << "4 s after a 0.5 s sample: not due";
    session.clockSeconds += 1.5;
    session.controller.advanceFrame();
    EXPECT_EQ(history.size(), 4u) << "5.5 s after: due";
}

TEST(PlotSampling, HistoryKeepsTheNewestSamplesAndRestartsOnAnotherMethod) {
    DiagnosticsHistory history(3);
    DiagnosticsMeasurement measurement;
    measurement.totalMass = 1;
    measurement.diagnostics.kineticEnergy = 0.25;
    measurement.diagnostics.potentialEnergy = -0.5;
    for (int k = 0; k < 5; ++k) {
        measurement.step = std::uint64_t(k);
        measurement.diagnostics.kineticEnergy = 0.25 + 0.01 * k;
        history.record(measurement);
    }
    ASSERT_EQ(history.size(), 3u);
    EXPECT_EQ(history[0].step, 2u);
    EXPECT_EQ(history.latest().step, 4u);
    EXPECT_NEAR(history.latest().relativeEnergyError, 0.04 / 0.25, 1e-12) << "E0 = -0.25 from step 0";
    measurement.diagnostics.potentialMethod = PotentialMethod::Tree;
    measurement.diagnostics.potentialOpeningAngle = 0.5;
    history.record(measurement);
    ASSERT_EQ(history.size(), 1u) << "a tree W is not compared with a direct-sum E0";
    EXPECT_EQ(history.latest().relativeEnergyError, 0.0);
}

std::vector<std::string> splitCommas(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, ','))
        fields.push_back(field);
    if (!line.empty() && line.back() == ',')
        fields.emplace_back();
    return fields;
}

TEST(PlotSampling, CsvReadsBackColumnByColumn) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallRun(seed, "direct"), sampleEvery(2));
    for (int frame = 0; frame < 6; ++frame)
        session.controller.advanceFrame();
    const DiagnosticsHistory& history = session.controller.plotHistory();
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "plots.csv";
    writeDiagnosticsCsv(history, file);

    std::ifstream in(file);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    const std::vector<std::string> header = splitCommas(line);
    EXPECT_EQ(header[0], "simulation_time [N-body time]");
    EXPECT_EQ(header[5], "relative_energy_error [|E-E0|/|E0|]");
    EXPECT_EQ(header[10], "lagrangian_radius_50 [N-body length]");
    EXPECT_EQ(header[13], "potential_method [tree or direct-fp64]");
    EXPECT_EQ(header[14], "opening_angle [theta; 0 for direct-fp64]");
    EXPECT_EQ(header[15], "step_ms_force [ms]");
    std::size_t row = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> fields = splitCommas(line);
        ASSERT_EQ(fields.size(), header.size()) << "row " << row;
        const DiagnosticsSample& sample = history[row];
        EXPECT_EQ(std::stod(fields[0]), sample.simulationTime);
        EXPECT_EQ(std::stoull(fields[1]), sample.step);
        EXPECT_EQ(std::stod(fields[3]), sample.diagnostics.potentialEnergy);
        EXPECT_EQ(std::stod(fields[5]), sample.relativeEnergyError);
        EXPECT_EQ(std::stod(fields[8]), sample.virialRatio);
        EXPECT_EQ(std::stod(fields[10]), sample.lagrangianRadii[1]);
        EXPECT_EQ(fields[13], "direct-fp64");
        EXPECT_EQ(std::stod(fields[14]), 0.0);
        if (row == 0)
            EXPECT_EQ(fields[15], "") << "no step before the baseline";
        else
            EXPECT_EQ(std::stod(fields[15]), sample.stepTimings[0].milliseconds);
        ++row;
    }
    EXPECT_EQ(row, history.size());
    EXPECT_EQ(row, 4u) << "steps 0, 2, 4 and 6";
}

TEST(PlotSampling, CsvOfATreeRunNamesTheMethodAndThetaInTheirOwnColumns) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallRun(seed, "tree");
    params.openingAngle = 0.7;
    CountedSession session(params, sampleEvery(1));
    session.controller.advanceFrame();
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "tree.csv";
    writeDiagnosticsCsv(session.controller.plotHistory(), file);
    std::ifstream in(file);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    const std::size_t columns = splitCommas(line).size();
    EXPECT_EQ(columns, 15u + 4u) << "fixed columns, then build, summary, force and integrate";
    while (std::getline(in, line)) {
        const std::vector<std::string> fields = splitCommas(line);
        ASSERT_EQ(fields.size(), columns) << line;
        EXPECT_EQ(fields[13], "tree");
        EXPECT_EQ(std::stod(fields[14]), 0.7);
    }
}

} // namespace
} // namespace gravlab::test
