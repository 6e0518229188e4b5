#pragma once
// A session on the CPU backend whose every outside effect is counted: O(N^2) diagnostics (a backend wrapper), device
// probes, frame-sink calls, and wall-clock time (a clock that moves only when told).
//
// Design note: the wrapper forwards everything to a real CpuBackend, so the session runs the real physics; it only
// counts diagnostics() calls, which is where every O(N^2) energy evaluation ends, whoever asks for it (Simulation's
// eager baseline or the controller). The sink does what the real host-copy path does with vertices (writes them
// into an array of simulation.bodyCount()), so a body count that disagrees with the backend's state fails here as
// it would on screen, and it can refuse to grow, as a GPU without the memory would.
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <session/SessionController.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab::test {

struct BackendCalls {
    int diagnostics = 0;
    int backendsMade = 0;
    std::function<void()> onDiagnostics; ///< e.g. moves the test clock by what an evaluation "takes"
    /// Runs before each step() call, on the thread that steps: a slow step (it waits for the test), or a failing one.
    std::function<void()> onStep;
};

class CountingBackend final : public SimulationBackend {
public:
    explicit CountingBackend(BackendCalls& calls) : m_calls(calls) {}

    std::string description() const override { return "counting " + m_backend.description(); }
    void load(const Bodies& bodies) override { m_backend.load(bodies); }
    void step(const SimParams& params, int stepCount) override {
        if (m_calls.onStep)
            m_calls.onStep();
        m_backend.step(params, stepCount);
    }
    void reverseVelocities() override { m_backend.reverseVelocities(); }
    void readBodies(Bodies& out) const override { m_backend.readBodies(out); }
    Diagnostics diagnostics(const SimParams& params) const override {
        ++m_calls.diagnostics;
        if (m_calls.onDiagnostics)
            m_calls.onDiagnostics();
        return m_backend.diagnostics(params);
    }
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override {
        m_backend.readAccelerations(params, out);
    }
    std::vector<PhaseTiming> lastStepTimings() const override { return m_backend.lastStepTimings(); }
    void updateOrbDomains(const SimParams& params) override { m_backend.updateOrbDomains(params); }
    Device device() const override { return m_backend.device(); }
    VisualSource& visuals() override { return m_backend.visuals(); }
    const VisualSource& visuals() const override { return m_backend.visuals(); }

private:
    BackendCalls& m_calls;
    CpuBackend m_backend;
};

class CountingSink final : public FrameSink {
public:
    void refreshVertices(const Simulation& simulation) override {
        if (refuseAbove && simulation.bodyCount() > *refuseAbove)
            throw std::runtime_error("test sink: no room for " + std::to_string(simulation.bodyCount()) + " vertices");
        vertices.resize(simulation.bodyCount());
        simulation.visuals().writeVertices(vertices);
        ++vertexRefreshes;
    }
    void invalidateTreeOverlay() override { ++treeInvalidations; }
    void invalidateOrbOverlay() override { ++orbInvalidations; }

    int vertexRefreshes = 0;
    int treeInvalidations = 0;
    int orbInvalidations = 0;
    std::vector<RenderVertex> vertices;     ///< as of the last refresh
    std::optional<std::size_t> refuseAbove; ///< throw for more bodies than this, as a full GPU would
};

/// A Plummer sphere of bodyCount bodies on the CPU backend, small enough for a session test to step it often.
inline SimParams smallPlummer(std::uint64_t seed, std::uint64_t bodyCount) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = bodyCount;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.timeStep = 0.005;
    return params;
}

/// Counts of everything the session did outside the simulation, to compare before and after an action.
struct SessionCounts {
    int diagnostics, probes, vertexRefreshes, treeInvalidations, orbInvalidations;
    bool operator==(const SessionCounts&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const SessionCounts& counts) {
    return out << "{diagnostics " << counts.diagnostics << ", probes " << counts.probes << ", vertex refreshes "
               << counts.vertexRefreshes << ", tree invalidations " << counts.treeInvalidations
               << ", ORB invalidations " << counts.orbInvalidations << "}";
}

/// Session settings without plot sampling: the energy tests count the O(N^2) evaluations of the energy history alone
/// (plot samples of a direct-sum run are such evaluations too; DiagnosticsSamplerTest counts those).
inline SessionSettings withoutPlots(SessionSettings settings = {}) {
    settings.plots.enabled = false;
    return settings;
}

/// A simulation of params on counting CPU backends, and a controller over it with a counting sink, probe and a
/// manual clock. Members are declared in construction order.
class CountedSession {
public:
    explicit CountedSession(const SimParams& params, SessionSettings settings = withoutPlots())
        : simulation(params, backendFactory()), controller(simulation, sink, settings, environment()) {}

    SessionCounts counts() const {
        return {calls.diagnostics, probes, sink.vertexRefreshes, sink.treeInvalidations, sink.orbInvalidations};
    }
    Bodies bodies() const {
        Bodies out;
        simulation.backend().readBodies(out);
        return out;
    }

    BackendCalls calls;
    double clockSeconds = 1000.0; ///< what the controller's wall clock reads
    int probes = 0;
    CountingSink sink;
    Simulation simulation;
    SessionController controller;

private:
    BackendFactory backendFactory() {
        return [this](const SimParams&) {
            ++calls.backendsMade;
            return std::make_unique<CountingBackend>(calls);
        };
    }
    SessionEnvironment environment() {
        SessionEnvironment environment;
        environment.probeCudaBackend = [this](const SimParams&) {
            ++probes;
            return false;
        };
        environment.wallSeconds = [this] { return clockSeconds; };
        return environment;
    }
};

} // namespace gravlab::test
