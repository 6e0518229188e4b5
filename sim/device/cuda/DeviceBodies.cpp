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
    if (hasLowParts())
        for (DeviceBuffer<float4>* low : {&positionLow, &velocityLow, &accelerationLow})
            low->resize(bodyCount);
}

void DeviceBodies::setPrecision(Precision precision, cudaStream_t stream) {
    if (precision == this->precision() || size() == 0)
        return;
    for (DeviceBuffer<float4>* low : {&positionLow, &velocityLow, &accelerationLow}) {
        if (precision == Precision::Double) {
            low->resize(size());
            low->zero(stream);
        } else {
            *low = DeviceBuffer<float4>();
        }
    }
}

std::vector<DeviceBuffer<float4>*> DeviceBodies::reorderedArrays() {
    std::vector<DeviceBuffer<float4>*> arrays{&positionMass, &velocityColor, &acceleration};
    if (hasLowParts())
        arrays.insert(arrays.end(), {&positionLow, &velocityLow, &accelerationLow});
    return arrays;
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
    device.setPrecision(Precision::Single, stream); // the low parts follow the host's, below
    device.resize(count);
    device.positionMass.upload(positionMass, stream);
    device.velocityColor.upload(velocityColor, stream);
    std::vector<float4> positionLow, velocityLow;
    if (host.hasLowParts() && count > 0) {
        device.setPrecision(Precision::Double, stream); // accelerationLow zeroed
        positionLow.resize(count);
        velocityLow.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            positionLow[i] = {host.xLow[i], host.yLow[i], host.zLow[i], 0.0f};
            velocityLow[i] = {host.vxLow[i], host.vyLow[i], host.vzLow[i], 0.0f};
        }
        device.positionLow.upload(positionLow, stream);
        device.velocityLow.upload(velocityLow, stream);
    }
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
    std::vector<float4> positionLow(device.positionLow.size()), velocityLow(device.velocityLow.size());
    if (device.hasLowParts()) {
        device.positionLow.download(positionLow, stream);
        device.velocityLow.download(velocityLow, stream);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    unpackBodies(device, positionMass, velocityColor, loadOrder, out);
    if (device.hasLowParts()) {
        convertPrecision(out, Precision::Double);
        for (std::size_t i = 0; i < count; ++i) {
            out.xLow[i] = positionLow[i].x, out.yLow[i] = positionLow[i].y, out.zLow[i] = positionLow[i].z;
            out.vxLow[i] = velocityLow[i].x, out.vyLow[i] = velocityLow[i].y, out.vzLow[i] = velocityLow[i].z;
        }
    }
}

void unpackBodies(const DeviceBodies& device, std::span<const float4> positionMass,
                  std::span<const float4> velocityColor, std::span<const std::uint32_t> loadOrder, Bodies& out) {
    const std::size_t count = positionMass.size();
    out = Bodies();
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
