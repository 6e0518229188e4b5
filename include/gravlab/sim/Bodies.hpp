#pragma once
// Body state on the host, as a structure of arrays.
//
// Design note: one std::vector per component keeps the CPU loops vectorisable and lets the device twin
// (DeviceBodies, CUDA core) be filled with one strided copy per component. colorKey is a per-body render scalar in
// [0, 1] set by the scenario (which galaxy or component a body belongs to); it travels with the body whenever bodies
// are reordered, so colours stay attached to their bodies.
#include <cstddef>
#include <vector>

namespace gravlab {

struct Bodies {
    std::vector<float> x, y, z;    ///< positions, N-body length units
    std::vector<float> vx, vy, vz; ///< velocities, N-body velocity units
    std::vector<float> mass;       ///< masses, N-body mass units (> 0)
    std::vector<float> colorKey;   ///< render scalar in [0, 1], chosen by the scenario

    /// Host bytes per body of the eight arrays above (memory estimates, MemoryBudget.hpp).
    static constexpr std::size_t kBytesPerBody = 8 * sizeof(float);

    std::size_t size() const { return x.size(); }
    void resize(std::size_t count) {
        for (auto* component : {&x, &y, &z, &vx, &vy, &vz, &mass, &colorKey})
            component->resize(count);
    }
};

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
