#pragma once
// Body state on the host, as a structure of arrays.
//
// Design note: one std::vector per component keeps the CPU loops vectorisable and lets the device twin
// (DeviceBodies, CUDA core) be filled with one strided copy per component. Three arrays say who a body is rather than
// where it is, and travel with the body whenever bodies are reordered (ORB domains, migration), so a body read back
// is the body that was loaded:
//   id         a stable 64-bit identity: a file's particle ids as read, 0..N-1 for scenarios, shown when picked;
//   component  the particle type in the GADGET numbering (0 gas, 1 dark matter or a scenario's bodies, 2 disk,
//              3 bulge, 4 stars, 5 black holes or boundary), so a snapshot written keeps its parts apart;
//   colorKey   a render scalar in [0, 1] chosen by the scenario or derived from the component.
// In double precision (Precision.hpp) six more arrays hold the low parts of positions and velocities: the state is then
// double(x) + double(xLow), a float-float pair of about 48 significant bits, while x stays the rounded state that the
// float solvers, the renderer and ORB read unchanged. The low arrays are empty in single precision (no memory); when
// present they are per-body arrays like the others and travel with their bodies.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gravlab {

/// Particle types a snapshot distinguishes (GADGET's PartType0..5; tipsy's gas, dark and star are 0, 1 and 4).
inline constexpr std::uint8_t kComponentCount = 6;
inline constexpr std::uint8_t kGasComponent = 0;
inline constexpr std::uint8_t kDarkMatterComponent = 1;
inline constexpr std::uint8_t kStarComponent = 4;

struct Bodies {
    std::vector<float> x, y, z;          ///< positions, in the simulation's length unit
    std::vector<float> vx, vy, vz;       ///< velocities, in its velocity unit
    std::vector<float> mass;             ///< masses, in its mass unit (> 0)
    std::vector<float> colorKey;         ///< render scalar in [0, 1], chosen by the scenario or the component
    std::vector<std::uint64_t> id;       ///< stable identity (see the design note)
    std::vector<std::uint8_t> component; ///< particle type, < kComponentCount
    /// Low parts of positions and velocities (see the design note): empty in single precision, else one per body.
    std::vector<float> xLow, yLow, zLow, vxLow, vyLow, vzLow;

    /// Host bytes per body of the arrays above in single precision (memory estimates, MemoryBudget.hpp).
    static constexpr std::size_t kBytesPerBody = 8 * sizeof(float) + sizeof(std::uint64_t) + sizeof(std::uint8_t);
    /// What the low parts add per body in double precision.
    static constexpr std::size_t kLowPartBytesPerBody = 6 * sizeof(float);

    std::size_t size() const { return x.size(); }
    /// Whether the bodies carry low parts (double precision); then every low array must hold size() entries.
    bool hasLowParts() const {
        return !xLow.empty() || !yLow.empty() || !zLow.empty() || !vxLow.empty() || !vyLow.empty() || !vzLow.empty();
    }
    /// Resizes every array (the low parts only when present); new bodies get id 0, component 0 and zero low parts.
    void resize(std::size_t count);
    /// Whether every array holds size() entries (the low arrays: all of them, or none when they are all empty).
    bool consistent() const;
    /// ids 0..N-1 and the given component for every body (scenarios, arrays given without ids); sizes both arrays.
    void numberSequentially(std::uint8_t bodyComponent = kDarkMatterComponent) {
        id.resize(size());
        component.resize(size());
        for (std::size_t i = 0; i < size(); ++i) {
            id[i] = i;
            component[i] = bodyComponent;
        }
    }
};

/// "gas", "dark matter", "disk", "bulge", "stars", "black holes", or "unknown" past the last component.
inline const char* componentName(std::uint8_t component) {
    constexpr const char* kNames[kComponentCount] = {"gas", "dark matter", "disk", "bulge", "stars", "black holes"};
    return component < kComponentCount ? kNames[component] : "unknown";
}

/// Who one body is (Bodies.hpp's design note): what the viewer shows for a picked body.
struct BodyIdentity {
    std::uint64_t id = 0;
    std::uint8_t component = 0;
    bool operator==(const BodyIdentity&) const = default;
};

/// colorKey of a body of the given component when its file says nothing else: the components spread over [0, 1] so
/// each palette tells them apart (gas 0, dark matter 0.2, ..., black holes 1).
inline float componentColorKey(std::uint8_t component) {
    return float(component) / float(kComponentCount - 1);
}

/// The six arrays of positions and velocities (x, y, z, vx, vy, vz) and their low parts in the same order: pair k is
/// (pairedArrays(b)[k], lowPartArrays(b)[k]). Pointers to const for const bodies.
template <typename BodiesType> auto pairedArrays(BodiesType& bodies) {
    return std::array{&bodies.x, &bodies.y, &bodies.z, &bodies.vx, &bodies.vy, &bodies.vz};
}
template <typename BodiesType> auto lowPartArrays(BodiesType& bodies) {
    return std::array{&bodies.xLow, &bodies.yLow, &bodies.zLow, &bodies.vxLow, &bodies.vyLow, &bodies.vzLow};
}

/// Calls visit(array) once for every per-body array of bodies (vectors of float, std::uint64_t and std::uint8_t), the
/// low parts included when the bodies carry them, so code that reorders, resizes or checks bodies names no array and
/// misses none.
template <typename BodiesType, typename Visit> void forEachBodyArray(BodiesType& bodies, Visit&& visit) {
    visit(bodies.x);
    visit(bodies.y);
    visit(bodies.z);
    visit(bodies.vx);
    visit(bodies.vy);
    visit(bodies.vz);
    visit(bodies.mass);
    visit(bodies.colorKey);
    visit(bodies.id);
    visit(bodies.component);
    if (bodies.hasLowParts())
        for (auto* low : lowPartArrays(bodies))
            visit(*low);
}

inline void Bodies::resize(std::size_t count) {
    forEachBodyArray(*this, [count](auto& array) { array.resize(count); });
}

inline bool Bodies::consistent() const {
    bool sameSizes = true;
    forEachBodyArray(*this, [&](const auto& array) { sameSizes = sameSizes && array.size() == size(); });
    return sameSizes;
}

/// Shifts positions and velocities so that the centre of mass is at the origin and at rest (sums in double).
void moveToCentreOfMassFrame(Bodies& bodies);

/// Three arrays of one precision: accelerations (float for solvers, double for the reference).
template <typename Real> struct Vec3Arrays {
    std::vector<Real> x, y, z;

    std::size_t size() const { return x.size(); }
    void resize(std::size_t count) {
        x.resize(count);
        y.resize(count);
        z.resize(count);
    }
};

/// One vertex of the particle vertex buffer: position and the colour scalar, 16 bytes so the GPU writes it as one
/// float4 (the CUDA-GL interop path) and the CPU path uploads the same layout.
struct RenderVertex {
    float x, y, z;
    float colorScalar;
};
static_assert(sizeof(RenderVertex) == 16);

} // namespace gravlab
