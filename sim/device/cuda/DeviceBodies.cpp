#include "device/cuda/DeviceBodies.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {
namespace {

void requireConsistentSizes(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    for (const std::vector<float>* component :
         {&bodies.y, &bodies.z, &bodies.vx, &bodies.vy, &bodies.vz, &bodies.mass, &bodies.colorKey})
        if (component->size() != count)
            throw std::invalid_argument("uploadBodies: body arrays differ in length (" +
                                        std::to_string(component->size()) + " and " + std::to_string(count) + ")");
}

} // namespace

void DeviceBodies::resize(std::size_t bodyCount) {
    positionMass.resize(bodyCount);
    velocityColor.resize(bodyCount);
    acceleration.resize(bodyCount);
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
    CUDA_CHECK(cudaStreamSynchronize(stream)); // the staging vectors die at return
}

void downloadBodies(const DeviceBodies& device, Bodies& out, cudaStream_t stream) {
    const std::size_t count = device.size();
    std::vector<float4> positionMass(count);
    std::vector<float4> velocityColor(count);
    device.positionMass.download(positionMass, stream);
    device.velocityColor.download(velocityColor, stream);
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
