#pragma once
// Body state on the device: the twin of the host Bodies (Bodies.hpp), in the layout the kernels want.
//
// Design note: three arrays of float4, one 16-byte load or store per body and purpose.
//   positionMass   (x, y, z, m)          Every force kernel needs position and mass together: one LDG.128 per body
//                                        from device memory and one LDS.128 per source from a shared-memory tile,
//                                        instead of four scalar loads from four structure-of-arrays streams.
//   velocityColor  (vx, vy, vz, colorKey) The integrator reads and writes velocity with one 16-byte access; the
//                                        colour key fills the fourth lane, so it travels with its body whenever
//                                        bodies are reordered and the render kernel reads it with no extra array.
//   acceleration   (ax, ay, az, 0)        The last force evaluation, kept between steps (KDK needs one force
//                                        evaluation per step). The padding lane buys 16-byte aligned access and
//                                        the single vector atomic (red.global.add.v4.f32, sm_90) with which the
//                                        pair-once solver combines its partial sums.
//   loadOrder      uint32                 Where the body was in the bodies given to uploadBodies. Who a body is (its
//                                        64-bit id and component, Bodies.hpp) is needed only on the host, so those
//                                        stay in host tables in load order and the device moves 4 bytes per body
//                                        when ORB reorders the bodies instead of 9.
// 52 bytes per body, 14 GB at the largest allowed N (2^28). Conversion from and to the host structure of arrays
// happens on the host in one pass per direction.
#include "device/cuda/DeviceBuffer.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>
#include <vector_types.h>

namespace gravlab {

struct DeviceBodies {
    DeviceBuffer<float4> positionMass;
    DeviceBuffer<float4> velocityColor;
    DeviceBuffer<float4> acceleration;
    DeviceBuffer<std::uint32_t> loadOrder;
    std::vector<std::uint64_t> idInLoadOrder;        ///< host table: ids of the uploaded bodies
    std::vector<std::uint8_t> componentInLoadOrder; ///< host table: their components

    static constexpr std::size_t kBytesPerBody = 3 * sizeof(float4) + sizeof(std::uint32_t);

    std::size_t size() const { return positionMass.size(); }
    /// Reallocates the device arrays for bodyCount bodies (contents are lost).
    void resize(std::size_t bodyCount);
};

/// Resizes device to host.size() and uploads positions, masses, velocities and colour keys, the load order 0..N-1 and
/// the host identity tables; the accelerations are left unset. Returns once the copies have completed.
void uploadBodies(const Bodies& host, DeviceBodies& device, cudaStream_t stream);

/// Positions, velocities, masses, colour keys, ids and components back into out (resized), in the device's current
/// order. Returns once the copies have completed.
void downloadBodies(const DeviceBodies& device, Bodies& out, cudaStream_t stream);

/// Accelerations back to the host (out resized), e.g. for tests against the fp64 reference.
void downloadAccelerations(const DeviceBodies& device, Vec3Arrays<float>& out, cudaStream_t stream);

} // namespace gravlab
