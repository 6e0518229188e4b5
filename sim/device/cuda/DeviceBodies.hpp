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
// Double precision (Precision.hpp) adds three arrays, allocated only then (single precision stays at 52 bytes):
//   positionLow, velocityLow (xLow, yLow, zLow, 0)  the low parts of the float-float state;
//   accelerationLow          (axLow, ayLow, azLow, 0) the low parts of an fp64 solver's accelerations.
// They are float4 so that every array ORB moves has one layout (reorderedArrays()) and each access stays one 16-byte
// load: 48 bytes per body more, where packing would save 12.
#include "device/cuda/DeviceBuffer.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Precision.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>
#include <vector_types.h>

namespace gravlab {

struct DeviceBodies {
    DeviceBuffer<float4> positionMass;
    DeviceBuffer<float4> velocityColor;
    DeviceBuffer<float4> acceleration;
    DeviceBuffer<std::uint32_t> loadOrder;
    DeviceBuffer<float4> positionLow;               ///< double precision only (see the design note); empty otherwise
    DeviceBuffer<float4> velocityLow;               ///< double precision only
    DeviceBuffer<float4> accelerationLow;           ///< double precision only
    std::vector<std::uint64_t> idInLoadOrder;       ///< host table: ids of the uploaded bodies
    std::vector<std::uint8_t> componentInLoadOrder; ///< host table: their components

    static constexpr std::size_t kBytesPerBody = 3 * sizeof(float4) + sizeof(std::uint32_t);
    /// What double precision adds per body.
    static constexpr std::size_t kLowPartBytesPerBody = 3 * sizeof(float4);

    std::size_t size() const { return positionMass.size(); }
    bool hasLowParts() const { return positionLow.size() != 0; }
    Precision precision() const { return hasLowParts() ? Precision::Double : Precision::Single; }
    /// Reallocates the device arrays for bodyCount bodies (contents are lost), the low parts only when present.
    void resize(std::size_t bodyCount);
    /// Allocates the low parts as zeros (double) or frees them (single), queued on stream; nothing when unchanged.
    void setPrecision(Precision precision, cudaStream_t stream);
    /// Every float4 array that ORB moves with its body: position, velocity and acceleration, with their low parts in
    /// double precision.
    std::vector<DeviceBuffer<float4>*> reorderedArrays();
};

/// Resizes device to host.size() and uploads positions, masses, velocities and colour keys (with their low parts when
/// host has them; the device then has low parts exactly when host does), the load order 0..N-1 and the host identity
/// tables; the accelerations are left unset. Returns once the copies have completed.
void uploadBodies(const Bodies& host, DeviceBodies& device, cudaStream_t stream);

/// Positions, velocities (with their low parts in double precision, none in single), masses, colour keys, ids and
/// components back into out (resized), in the device's current order. Returns once the copies have completed.
void downloadBodies(const DeviceBodies& device, Bodies& out, cudaStream_t stream);

/// out (reset to single precision, resized) from host copies of a device's positionMass, velocityColor and load order,
/// in the device's order: the float fields, and ids and components from device's identity tables. downloadBodies()
/// uses it, and so do callers that assemble those arrays from elsewhere (the GPU ranks' gathered velocities).
void unpackBodies(const DeviceBodies& device, std::span<const float4> positionMass,
                  std::span<const float4> velocityColor, std::span<const std::uint32_t> loadOrder, Bodies& out);

/// Accelerations back to the host (out resized), e.g. for tests against the fp64 reference.
void downloadAccelerations(const DeviceBodies& device, Vec3Arrays<float>& out, cudaStream_t stream);

} // namespace gravlab
