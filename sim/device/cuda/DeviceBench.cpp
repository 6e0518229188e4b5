// The CUDA core's benchmarks: solver steps through CudaBackend, ORB builds through OrbGpu (see DeviceBench.hpp).
#include "device/cuda/CudaBackend.hpp"
#include "device/cuda/CudaBackendFactory.hpp"
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "orb/cuda/OrbGpu.hpp"

#include <gravlab/sim/DeviceBench.hpp>
#include <gravlab/sim/DeviceInfo.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gravlab {
namespace {

std::uint64_t freeDeviceBytes() {
    std::size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

/// The device's copy bandwidth: median of 5 device-to-device copies of 1 GiB (read + write counted).
double measureCopyBandwidth(cudaStream_t stream) {
    constexpr std::size_t kBytes = std::size_t(1) << 30;
    DeviceBuffer<unsigned char> source(kBytes), target(kBytes);
    source.zero(stream);
    CudaEvent start, stop;
    std::vector<double> ms;
    for (int run = 0; run < 6; ++run) {
        start.record(stream);
        target.copyFrom(source, stream);
        stop.record(stream);
        if (run > 0)
            ms.push_back(elapsedMilliseconds(start, stop));
    }
    return 2.0 * double(kBytes) / (median(ms) * 1e-3);
}

/// Interaction-count stand-ins in acceleration.w: whole numbers 1 + floor(1000 x an exponential random number with
/// mean 1) (splitmix64 of the seed and the index), about 1000 on average, as a tree walk reports per body.
std::vector<float4> benchWeights(std::uint64_t count, std::uint64_t seed) {
    std::vector<float4> acceleration(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t bits = seed + 0x9e3779b97f4a7c15ull * (i + 1);
        bits = (bits ^ (bits >> 30)) * 0xbf58476d1ce4e5b9ull;
        bits = (bits ^ (bits >> 27)) * 0x94d049bb133111ebull;
        bits ^= bits >> 31;
        const double uniform = (double(bits >> 11) + 0.5) / 9007199254740992.0; // in (0, 1)
        acceleration[i] = float4{0.0f, 0.0f, 0.0f, float(1.0 + std::floor(-1000.0 * std::log(uniform)))};
    }
    return acceleration;
}

template <typename BuildOnce> std::vector<double> timeBuilds(const DeviceOrbBench& bench, BuildOnce&& buildOnce) {
    std::vector<double> buildMs;
    for (int run = 0; run < bench.warmupBuildCount + bench.buildCount; ++run) {
        const double ms = buildOnce();
        if (run >= bench.warmupBuildCount)
            buildMs.push_back(ms);
    }
    return buildMs;
}

} // namespace

StepTimes timeDeviceSteps(const SimParams& params, int warmupStepCount, int stepCount) {
    requireDeviceMemoryForBodies(params.bodyCount, cudaDeviceBytesPerBody(params));
    const Bodies bodies = generateScenario(params.scenario, params.bodyCount, params.seed, params.scenarioParams);
    const std::uint64_t freeBefore = freeDeviceBytes();
    StepTimes times;
    CudaBackend backend;
    backend.load(bodies);
    backend.step(params, warmupStepCount);
    for (int step = 0; step < stepCount; ++step) {
        backend.step(params, 1);
        times.steps.push_back(backend.lastStepTimings());
    }
    times.peakDeviceBytes = freeBefore - std::min(freeBefore, freeDeviceBytes());
    times.machine = backend.description();
    times.statistics = backend.solverStatistics();
    times.orb = backend.visuals().orbStatus();
    return times;
}

DeviceOrbBuildTimes timeDeviceOrbBuilds(const DeviceOrbBench& bench) {
    const OrbCutFinder finder = bench.bisection ? OrbCutFinder::Bisection : OrbCutFinder::RadixSelect;
    const std::uint64_t n = bench.bodyCount;
    CudaStream stream;
    OrbGpu orb(finder);
    DeviceOrbBuildTimes times;
    if (bench.positionsOnly) {
        requireDeviceMemoryForBodies(n, 3 * sizeof(float) + OrbGpu::kScratchBytesPerBody);
        DeviceBuffer<float> x(n), y(n), z(n);
        times.buildMilliseconds = timeBuilds(bench, [&] {
            launchOrbUniformPositions(x.data(), y.data(), z.data(), n, bench.seed, stream.get());
            orb.buildPositions(x.data(), y.data(), z.data(), n, bench.domainCount, stream.get());
            return orb.lastBuildMilliseconds();
        });
        times.imbalance = orb.imbalance(stream.get());
    } else {
        const bool work = bench.balance == OrbBalance::Work;
        // The bodies twice (a pristine copy restores the order before each build) plus the build's scratch.
        requireDeviceMemoryForBodies(n, 2 * DeviceBodies::kBytesPerBody + OrbGpu::buildBytesPerBody(work));
        DeviceBodies pristine, device;
        uploadBodies(generateScenario(bench.scenario, n, bench.seed), pristine, stream.get());
        pristine.acceleration.upload(benchWeights(n, bench.seed), stream.get());
        device.resize(n);
        times.buildMilliseconds = timeBuilds(bench, [&] {
            device.positionMass.copyFrom(pristine.positionMass, stream.get());
            device.velocityColor.copyFrom(pristine.velocityColor, stream.get());
            device.acceleration.copyFrom(pristine.acceleration, stream.get());
            orb.build(device, bench.domainCount, bench.balance, stream.get());
            return orb.lastBuildMilliseconds();
        });
        times.imbalance = orb.imbalance(device, OrbBalance::Work, stream.get());
    }
    times.gpu = queryCurrentDevice().name;
    times.splitLevels = orb.levelBegin().size() - 2;
    times.bytesPerBody = OrbGpu::modelledBytesPerBody(times.splitLevels, finder, bench.balance, bench.positionsOnly,
                                                      orb.scatteredFirstPasses());
    times.copyBandwidth = measureCopyBandwidth(stream.get());
    return times;
}

} // namespace gravlab
