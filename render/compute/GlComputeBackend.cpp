// The OpenGL compute backend's state and steps (see GlComputeBackend.hpp for the design).
#include "compute/GlComputeBackend.hpp"

#include <gravlab/EmbeddedShaders.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/GlBackendParams.hpp>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace gravlab {

namespace {

enum StorageBinding : GLuint { kPositions = 0, kVelocities = 1, kAccelerations = 2, kVertices = 3, kCounter = 4 };

constexpr std::size_t kRecordBytes = 4 * sizeof(float);
/// kTargetsPerThread of direct_forces.comp: targets per invocation (register blocking).
constexpr std::uint32_t kForceTargetsPerInvocation = 4;
/// Targets per force dispatch: 2048 work groups, what a large GPU needs to be busy (an H100 holds about 2100 groups of
/// 128 at once), so N up to 2^20 is one dispatch. Larger N is summed in several dispatches, so none runs for much
/// longer than a step of 2^20 bodies, which keeps a long sum from being taken for a hung GPU by a driver's watchdog.
constexpr std::uint64_t kTargetsPerDispatch = std::uint64_t{1} << 20;

/// Runs work, waits for the GPU (glFinish) and adds the wall-clock time to phase.
template <typename Work> void timedPhase(std::vector<PhaseTiming>& times, std::string_view phase, Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    glFinish();
    const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    addPhaseTime(times, phase, elapsed.count());
}

/// A buffer of bytes, filled from data (may be null), that shaders, copies and read-backs may use.
GlBuffer storageBuffer(std::size_t bytes, const void* data) {
    GlBuffer buffer = createBuffer();
    glNamedBufferStorage(buffer.id(), static_cast<GLsizeiptr>(bytes), data, GL_DYNAMIC_STORAGE_BIT);
    return buffer;
}

/// Interleaves four host arrays into records of four floats.
std::vector<float> records(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                           const std::vector<float>& d) {
    std::vector<float> out(4 * a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        out[4 * i] = a[i];
        out[4 * i + 1] = b[i];
        out[4 * i + 2] = c[i];
        out[4 * i + 3] = d[i];
    }
    return out;
}

void drainGlErrors() {
    while (glGetError() != GL_NO_ERROR) {
    }
}

} // namespace

GlComputeBackend::GlComputeBackend(GlComputeSupport support, std::string why)
    : m_support(std::move(support)), m_why(std::move(why)),
      m_forces("direct_forces.comp", shaders::direct_forces_comp, kForceTargetsPerInvocation),
      m_kick("leapfrog_kick.comp", shaders::leapfrog_kick_comp),
      m_drift("leapfrog_drift.comp", shaders::leapfrog_drift_comp),
      m_reverse("reverse_velocities.comp", shaders::reverse_velocities_comp),
      m_countNonFinite("count_non_finite.comp", shaders::count_non_finite_comp),
      m_vertices("render_vertices.comp", shaders::render_vertices_comp),
      m_firstTargetLocation(m_forces.uniformLocation("u_firstTarget")),
      m_softeningSquaredLocation(m_forces.uniformLocation("u_softeningSquared")),
      m_gravitationalConstantLocation(m_forces.uniformLocation("u_gravitationalConstant")),
      m_kickDurationLocation(m_kick.uniformLocation("u_duration")),
      m_driftDurationLocation(m_drift.uniformLocation("u_duration")),
      m_nonFiniteCounter(storageBuffer(sizeof(GLuint), nullptr)) {}

std::string GlComputeBackend::description() const {
    return "GL compute shaders (" + m_support.description() + (m_why.empty() ? "" : "; " + m_why) + ")";
}

void GlComputeBackend::load(const Bodies& bodies) {
    if (bodies.size() > m_support.maxBodies)
        throw GlComputeUnavailableError(
            "backend 'gl' takes at most " + std::to_string(m_support.maxBodies) + " bodies on " + m_support.renderer +
            " (one storage buffer of 16 bytes per body, GL_MAX_SHADER_STORAGE_BLOCK_SIZE), and " +
            std::to_string(bodies.size()) + " were given: choose fewer bodies, or --backend cpu or cuda");
    const std::size_t bytes = bodies.size() * kRecordBytes;
    const std::vector<float> positions = records(bodies.x, bodies.y, bodies.z, bodies.mass);
    const std::vector<float> velocities = records(bodies.vx, bodies.vy, bodies.vz, bodies.colorKey);
    drainGlErrors();
    StateBuffers state{storageBuffer(bytes, positions.data()), storageBuffer(bytes, velocities.data()),
                       storageBuffer(bytes, nullptr), storageBuffer(bytes, nullptr), storageBuffer(bytes, nullptr)};
    if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
        drainGlErrors();
        throw GlComputeUnavailableError(
            "backend 'gl' could not allocate " + std::to_string((5 * bytes + (1 << 20) - 1) >> 20) + " MiB for " +
            std::to_string(bodies.size()) + " bodies on " + m_support.renderer + " (GL error " + std::to_string(error) +
            (error == GL_OUT_OF_MEMORY ? ", out of memory" : "") + "): choose fewer bodies, or --backend cpu");
    }
    m_state = std::move(state);
    m_bodyCount = static_cast<std::uint32_t>(bodies.size());
    m_ids = bodies.id;
    m_components = bodies.component;
    m_accelerationsValid = false;
    m_stepsSinceLoad = 0;
    m_lastTimings.clear();
}

void GlComputeBackend::setPrecision(Precision precision) {
    SimParams asked;
    asked.precision = precision;
    asked.backend = BackendKind::Gl;
    requireGlBackendTakes(asked);
}

void GlComputeBackend::bindState() const {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kPositions, m_state.positions.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kVelocities, m_state.velocities.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kAccelerations, m_state.accelerations.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCounter, m_nonFiniteCounter.id());
}

void GlComputeBackend::computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    timedPhase(times, "force", [&] {
        m_forces.setUniform(m_softeningSquaredLocation, float(settings.softeningLength * settings.softeningLength));
        m_forces.setUniform(m_gravitationalConstantLocation, float(settings.gravitationalConstant));
        for (std::uint64_t first = 0; first < m_bodyCount; first += kTargetsPerDispatch) {
            m_forces.setUniform(m_firstTargetLocation, std::uint32_t(first));
            m_forces.dispatch(m_bodyCount,
                              std::uint32_t(std::min<std::uint64_t>(kTargetsPerDispatch, m_bodyCount - first)));
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    });
    m_accelerationsValid = true;
    m_accelerationsSettings = settings;
}

void GlComputeBackend::ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    if (!m_accelerationsValid || !(m_accelerationsSettings == settings))
        computeAccelerations(settings, times);
}

void GlComputeBackend::kick(float duration) const {
    m_kick.setUniform(m_kickDurationLocation, duration);
    m_kick.dispatch(m_bodyCount);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlComputeBackend::drift(float duration) const {
    m_drift.setUniform(m_driftDurationLocation, duration);
    m_drift.dispatch(m_bodyCount);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlComputeBackend::saveState() const {
    const auto bytes = static_cast<GLsizeiptr>(m_bodyCount * kRecordBytes);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glCopyNamedBufferSubData(m_state.positions.id(), m_state.savedPositions.id(), 0, 0, bytes);
    glCopyNamedBufferSubData(m_state.velocities.id(), m_state.savedVelocities.id(), 0, 0, bytes);
}

void GlComputeBackend::restoreState() {
    const auto bytes = static_cast<GLsizeiptr>(m_bodyCount * kRecordBytes);
    glCopyNamedBufferSubData(m_state.savedPositions.id(), m_state.positions.id(), 0, 0, bytes);
    glCopyNamedBufferSubData(m_state.savedVelocities.id(), m_state.velocities.id(), 0, 0, bytes);
    m_accelerationsValid = false;
}

std::uint32_t GlComputeBackend::countNonFiniteBodies() const {
    const GLuint zero = 0;
    glNamedBufferSubData(m_nonFiniteCounter.id(), 0, sizeof(zero), &zero);
    m_countNonFinite.dispatch(m_bodyCount);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    GLuint count = 0;
    glGetNamedBufferSubData(m_nonFiniteCounter.id(), 0, sizeof(count), &count);
    return count;
}

void GlComputeBackend::step(const SimParams& params, int stepCount) {
    requireGlBackendTakes(params);
    const ForceSettings settings{params.gravitationalConstant, params.softeningLength};
    const auto timeStep = float(params.timeStep);
    std::vector<PhaseTiming> times;
    bindState();
    saveState();
    for (int step = 0; step < stepCount; ++step) {
        ensureAccelerations(settings, times);
        timedPhase(times, "integrate", [&] {
            kick(0.5f * timeStep);
            drift(timeStep);
        });
        computeAccelerations(settings, times);
        timedPhase(times, "integrate", [&] { kick(0.5f * timeStep); });
    }
    if (const std::uint32_t nonFinite = countNonFiniteBodies(); nonFinite > 0) {
        restoreState();
        throw NonFiniteStateError(m_stepsSinceLoad + std::uint64_t(stepCount), nonFinite, m_bodyCount,
                                  m_stepsSinceLoad);
    }
    m_stepsSinceLoad += std::uint64_t(stepCount);
    m_lastTimings = std::move(times);
}

void GlComputeBackend::reverseVelocities() {
    bindState();
    m_reverse.dispatch(m_bodyCount);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlComputeBackend::readRecords(const GlBuffer& buffer, std::vector<float>& out) const {
    out.resize(4 * std::size_t(m_bodyCount));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(buffer.id(), 0, static_cast<GLsizeiptr>(m_bodyCount * kRecordBytes), out.data());
}

void GlComputeBackend::readBodies(Bodies& out) const {
    std::vector<float> positions, velocities;
    readRecords(m_state.positions, positions);
    readRecords(m_state.velocities, velocities);
    Bodies bodies;
    bodies.resize(m_bodyCount);
    for (std::size_t i = 0; i < m_bodyCount; ++i) {
        bodies.x[i] = positions[4 * i];
        bodies.y[i] = positions[4 * i + 1];
        bodies.z[i] = positions[4 * i + 2];
        bodies.mass[i] = positions[4 * i + 3];
        bodies.vx[i] = velocities[4 * i];
        bodies.vy[i] = velocities[4 * i + 1];
        bodies.vz[i] = velocities[4 * i + 2];
        bodies.colorKey[i] = velocities[4 * i + 3];
    }
    bodies.id = m_ids;
    bodies.component = m_components;
    out = std::move(bodies);
}

BodyIdentity GlComputeBackend::bodyIdentity(std::size_t index) const {
    if (index >= m_bodyCount)
        throw std::out_of_range("bodyIdentity: index " + std::to_string(index) + " of " + std::to_string(m_bodyCount) +
                                " bodies");
    return {m_ids[index], m_components[index]};
}

Diagnostics GlComputeBackend::diagnostics(const SimParams& params) const {
    Bodies bodies;
    readBodies(bodies);
    return computeDiagnosticsCpu(bodies, params.gravity());
}

void GlComputeBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    std::vector<PhaseTiming> times;
    bindState();
    ensureAccelerations({params.gravitationalConstant, params.softeningLength}, times);
    std::vector<float> accelerations;
    readRecords(m_state.accelerations, accelerations);
    out.x.resize(m_bodyCount);
    out.y.resize(m_bodyCount);
    out.z.resize(m_bodyCount);
    for (std::size_t i = 0; i < m_bodyCount; ++i) {
        out.x[i] = accelerations[4 * i];
        out.y[i] = accelerations[4 * i + 1];
        out.z[i] = accelerations[4 * i + 2];
    }
}

void GlComputeBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    if (out.size() != m_backend.m_bodyCount)
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(m_backend.m_bodyCount) + " bodies");
    std::vector<float> positions, velocities;
    m_backend.readRecords(m_backend.m_state.positions, positions);
    m_backend.readRecords(m_backend.m_state.velocities, velocities);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = {positions[4 * i], positions[4 * i + 1], positions[4 * i + 2], velocities[4 * i + 3]};
}

void GlComputeBackend::Visuals::writeVerticesToGlBuffer(GlBufferName buffer, std::size_t capacity) const {
    if (capacity < m_backend.m_bodyCount)
        throw std::invalid_argument("render vertices: the GL buffer holds " + std::to_string(capacity) +
                                    " vertices for " + std::to_string(m_backend.m_bodyCount) + " bodies");
    m_backend.bindState();
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kVertices, buffer.value);
    m_backend.m_vertices.dispatch(m_backend.m_bodyCount);
    // The draw reads the buffer as vertex attributes; a read-back (the camera fit) reads it as a buffer.
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

ColorScale GlComputeBackend::Visuals::colorScale(const UnitSystem&) const {
    ColorScale scale;
    if (m_mode != ColorMode::Component)
        scale.note = "backend 'gl' draws component colours only; choose --backend cpu or cuda for '" +
                     std::string(enumName(m_mode)) + "'";
    return scale;
}

std::unique_ptr<SimulationBackend> createGlComputeBackend(const SimParams& params, std::string why) {
    GlComputeSupport support = queryGlComputeSupport();
    if (!support.usable())
        throw GlComputeUnavailableError("backend 'gl' needs " + support.missing +
                                        (support.renderer.empty() ? "" : " and " + support.renderer + " lacks it") +
                                        ": use --backend cpu (or cuda on an NVIDIA GPU)");
    requireGlBackendTakes(params);
    try {
        return std::make_unique<GlComputeBackend>(std::move(support), std::move(why));
    } catch (const ShaderBuildError& error) {
        throw GlComputeUnavailableError(std::string("the GL driver rejected backend 'gl''s compute shaders (") +
                                        error.what() + "): use --backend cpu (or cuda on an NVIDIA GPU)");
    }
}

} // namespace gravlab
