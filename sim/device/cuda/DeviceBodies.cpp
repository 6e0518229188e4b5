#include "device/cuda/DeviceBodies.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {
namespace {

void requireConsistentSizes(const Bodies& bodies) {
    if (!bodies.consistent())
        throw std::invalid_argument("uploadBodies: the body arrays differ in length (" +
                                    std::to_string(bodies.size()) + " positions)");
}

} // namespace

void DeviceBodies::resize(std::size_t bodyCount) {
    positionMass.resize(bodyCount);
    velocityColor.resize(bodyCount);
    acceleration.resize(bodyCount);
    loadOrder.resize(bodyCount);
}

void uploadBodies(const Bodies& host, DeviceBodies& device, cudaStream_t stream) {
    requireConsistentSizes(host);
    const std::size_t count = host.size();
    std::vector<float4> positionMass(count);
    std::vector<float4> velocityColor(count);
    for (std::size_t i = 0; i < count; ++i) {
        positionMass[i] = {host.x[i], host.y[i], host.z[i], host.mass[i]};
        velocityColor[i] = {host.vx[i], host.vy[i], host.vz[i], host.colorKey[i]};
    }
    device.resize(count);
    device.positionMass.upload(positionMass, stream);
    device.velocityColor.upload(velocityColor, stream);
    std::vector<std::uint32_t> loadOrder(count);
    std::iota(loadOrder.begin(), loadOrder.end(), std::uint32_t{0});
    device.loadOrder.upload(loadOrder, stream);
    device.idInLoadOrder = host.id;
    device.componentInLoadOrder = host.component;
    CUDA_CHECK(cudaStreamSynchronize(stream)); // the staging vectors die at return
}

void downloadBodies(const DeviceBodies& device, Bodies& out, cudaStream_t stream) {
    const std::size_t count = device.size();
    std::vector<float4> positionMass(count);
    std::vector<float4> velocityColor(count);
    device.positionMass.download(positionMass, stream);
    device.velocityColor.download(velocityColor, stream);
    std::vector<std::uint32_t> loadOrder(count);
    device.loadOrder.download(loadOrder, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.x[i] = positionMass[i].x;
        out.y[i] = positionMass[i].y;
        out.z[i] = positionMass[i].z;
        out.mass[i] = positionMass[i].w;
        out.vx[i] = velocityColor[i].x;
        out.vy[i] = velocityColor[i].y;
        out.vz[i] = velocityColor[i].z;
        out.colorKey[i] = velocityColor[i].w;
        out.id[i] = device.idInLoadOrder[loadOrder[i]];
        out.component[i] = device.componentInLoadOrder[loadOrder[i]];
    }
}

void downloadAccelerations(const DeviceBodies& device, Vec3Arrays<float>& out, cudaStream_t stream) {
    const std::size_t count = device.size();
    std::vector<float4> acceleration(count);
    device.acceleration.download(acceleration, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.x[i] = acceleration[i].x;
        out.y[i] = acceleration[i].y;
        out.z[i] = acceleration[i].z;
    }
}

} // namespace gravlab
