#pragma once
// The CPU fallback backend: float direct summation (OpenMP) and leapfrog KDK on host vectors.
//
// Design note: the accelerations of the last force evaluation are cached together with the G and softening they were
// computed with, so each KDK step needs one force evaluation; the cache is dropped on load() and whenever G or the
// softening differ from the cached ones. Every step() call first copies the state (O(N), next to O(N^2) forces):
// when a step leaves a non-finite position or velocity the copy is put back and NonFiniteStateError is thrown, so a
// too-large time step never destroys the user's system. The CPU has one direct-sum solver; SolverKind only selects
// among GPU kernels, so both kinds run it here.
#include "DirectSumCpu.hpp"
#include "SimulationBackend.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace gravlab {

class CpuBackend final : public SimulationBackend {
public:
    CpuBackend() = default;
    /// why: a note appended to description(), e.g. why the CUDA backend was not chosen.
    explicit CpuBackend(std::string why) : m_why(std::move(why)) {}

    std::string description() const override;
    void load(const Bodies& bodies) override;
    void step(const SimParams& params, int stepCount) override;
    void readBodies(Bodies& out) const override;
    Diagnostics diagnostics(const SimParams& params) const override;
    void writeRenderVertices(std::span<RenderVertex> out) const override;
    std::vector<PhaseTiming> lastStepTimings() const override;

private:
    /// Recomputes m_accelerations unless they are valid for gravity; returns the time it took in milliseconds.
    double ensureAccelerations(const GravityParams& gravity);
    /// One KDK step; returns {force, integrate} milliseconds.
    std::pair<double, double> stepOnce(const GravityParams& gravity, float timeStep);

    std::string m_why;
    Bodies m_bodies;
    Vec3Arrays<float> m_accelerations;
    bool m_accelerationsValid = false;
    GravityParams m_accelerationsGravity{0, 0};
    std::uint64_t m_stepsSinceLoad = 0;
    std::vector<PhaseTiming> m_lastTimings;
};

} // namespace gravlab
