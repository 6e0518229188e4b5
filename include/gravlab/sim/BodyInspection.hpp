#pragma once
// One body looked at closely: who it is, where it is, how it moves, how strongly it is bound, and which ORB domain
// holds it. What the viewer's inspector shows of a picked body, as SimulationBackend::inspectBody() returns it.
//
// Design note: a body is named by its 64-bit id, not by an index, because ORB re-partitions and migrations reorder
// the body arrays between steps; index says where the body sits in readBodies()' order at the moment of the
// inspection only. The potential is the softened direct sum over every other body in fp64,
//   phi_i = -G sum_{j != i} m_j / sqrt(|x_j - x_i|^2 + eps^2),
// the same pair term as the diagnostics' potential energy (Diagnostics.hpp), so the specific energy
// e = |v|^2 / 2 + phi_i of all bodies, weighted by mass, adds up to the kinetic energy plus twice the potential energy.
// It is O(N) per body, independent of the force solver: the acceleration shown is the solver's (what the integrator
// used), the potential is exact up to the fp32 positions. A negative e means bound to the system as a whole.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Orb.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gravlab {

/// A body's position, N-body length units.
using BodyPosition = std::array<float, 3>;

struct BodyInspection {
    BodyIdentity identity;
    std::size_t index = 0;           ///< where the body is now in readBodies()' order (ORB may move it)
    std::array<float, 3> position{}; ///< N-body length units
    std::array<float, 3> velocity{}; ///< N-body velocity units
    /// The solver's, with G, of the current positions; empty while the backend's cached accelerations are stale for
    /// the parameters asked with (after a load or a change of solver, G, softening or theta, until the next step):
    /// an inspection never runs a force evaluation.
    std::optional<std::array<float, 3>> acceleration;
    float mass = 0;
    double potential = 0; ///< phi: softened fp64 direct sum over every other body, with G (energy per unit mass)
    /// ORB domain holding the body; empty while ORB is off.
    std::optional<std::uint32_t> orbDomain;

    double speed() const { return std::hypot(double(velocity[0]), double(velocity[1]), double(velocity[2])); }
    /// |a|; empty with the acceleration.
    std::optional<double> accelerationMagnitude() const {
        if (!acceleration)
            return std::nullopt;
        const std::array<float, 3>& a = *acceleration;
        return std::hypot(double(a[0]), double(a[1]), double(a[2]));
    }
    /// e = |v|^2 / 2 + phi.
    double specificEnergy() const { return 0.5 * speed() * speed() + potential; }
};

/// phi of body `index` of bodies by the fp64 direct sum above (O(N)); throws std::out_of_range for a bad index.
double potentialAtBodyFp64(const Bodies& bodies, std::size_t index, const GravityParams& gravity);

/// The inspection of the body with this id in host arrays (accelerations in the bodies' order, nullptr while they are
/// stale; ORB cells as orbDomainOfIndex takes them); empty when no body has that id. The first body with the id counts.
std::optional<BodyInspection> inspectBodyOnHost(const Bodies& bodies, const Vec3Arrays<float>* accelerations,
                                                std::span<const OrbCell> orbCells, const GravityParams& gravity,
                                                std::uint64_t id);

/// Positions of the bodies with these ids in host arrays, one entry per id (empty where no body has it); one pass.
std::vector<std::optional<BodyPosition>> bodyPositionsOnHost(const Bodies& bodies, std::span<const std::uint64_t> ids);

/// The domain of the ORB leaf whose body range holds index (cells breadth first, as OrbCpu::cells()); empty when no
/// leaf does (no cells: ORB off).
std::optional<std::uint32_t> orbDomainOfIndex(std::span<const OrbCell> cells, std::size_t index);

} // namespace gravlab
