// The fp64 direct sum on the GPU: every pair in double precision, the reference a user can run at GPU speed (the
// counterpart of the -fp64 mode of NVIDIA's nbody sample), and the CUDA twin of the CPU fp64 oracle (DirectSumCpu.hpp).
//
// Design note: one thread per target body accumulates a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
// in double, with the sources staged through shared memory a block-sized tile at a time (converted from the float
// state once per tile); a partial evaluation (hierarchical time steps) reads its targets through an index list. The
// self term is exactly zero for eps > 0 and selected away for eps = 0, where a coincident pair of distinct bodies is
// reported instead of turned into NaN (CoincidenceRecord.hpp). Positions are the float state, or in double precision the float-float pairs
// (positionLow added in double), so the sum is exact up to fp64 rounding of its inputs: what the CPU oracle computes.
// acceleration.w gets N, every body's work. In double precision the fp64 result is stored as a pair too
// (accelerationLow gets the remainder), since kicks with float-rounded accelerations would bring back a float-sized
// energy error (DirectFp64Solver.cpp gives the measurement).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "direct/cuda/CoincidenceRecord.cuh"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

constexpr unsigned kFp64TileSize = 256;

struct SourceFp64 {
    double x, y, z, mass;
};

// Per target and source: 3 subtractions, 3 FMAs for r^2 + eps^2, one rsqrt, 3 multiplications, 3 FMAs (fp64); loads
/// Body i's position in double: the float, plus its low part when the state has them.
__device__ inline SourceFp64 sourceOf(const float4* positionMass, const float4* positionLow, unsigned i) {
    const float4 body = positionMass[i];
    SourceFp64 source{body.x, body.y, body.z, body.w};
    if (positionLow) {
        const float4 low = positionLow[i];
        source.x += low.x;
        source.y += low.y;
        source.z += low.z;
    }
    return source;
}

/// high = float(value), low = float(value - high) of each component; acceleration.w = work.
__device__ inline void storePair(double ax, double ay, double az, float work, float4& high, float4* low) {
    high = make_float4(float(ax), float(ay), float(az), work);
    if (low)
        *low = make_float4(float(ax - double(high.x)), float(ay - double(high.y)), float(az - double(high.z)), 0.0f);
}

// Per target and source: 3 subtractions, 3 FMAs for r^2 + eps^2, one rsqrt, 3 multiplications, 3 FMAs (fp64); loads
// 32 bytes of shared memory per source, 16 bytes (32 with low parts) of global memory per source per block. With
// eps > 0, r^2 > 0 always and the own term is 0 * finite; the eps = 0 instance adds a compare and two selects: a term
// with r^2 == 0 (the target itself, or another body at its position) is selected away, the other body remembered and
// the first such pair recorded (CoincidenceRecord.hpp).
template <bool kZeroSoftening>
__global__ void directFp64Kernel(const float4* __restrict__ positionMass, const float4* __restrict__ positionLow,
                                 float4* __restrict__ acceleration, float4* __restrict__ accelerationLow,
                                 unsigned bodyCount, const unsigned* __restrict__ targetIndex, unsigned targetCount,
                                 double gravitationalConstant, double softening2, CoincidenceOutput coincidence) {
    __shared__ SourceFp64 tile[kFp64TileSize];
    const unsigned slot = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned target = slot >= targetCount      ? bodyCount
                            : targetIndex != nullptr ? targetIndex[slot]
                                                     : slot; // bodyCount: none
    double xi = 0.0, yi = 0.0, zi = 0.0;
    if (target < bodyCount) {
        const SourceFp64 own = sourceOf(positionMass, positionLow, target);
        xi = own.x;
        yi = own.y;
        zi = own.z;
    }
    double ax = 0.0, ay = 0.0, az = 0.0;
    unsigned partner = force::kNoPartner;
    for (unsigned tileStart = 0; tileStart < bodyCount; tileStart += kFp64TileSize) {
        const unsigned source = tileStart + threadIdx.x;
        if (source < bodyCount)
            tile[threadIdx.x] = sourceOf(positionMass, positionLow, source);
        __syncthreads();
        const unsigned sourcesInTile = min(kFp64TileSize, bodyCount - tileStart);
        for (unsigned k = 0; k < sourcesInTile; ++k) {
            const double dx = tile[k].x - xi, dy = tile[k].y - yi, dz = tile[k].z - zi;
            const double distance2 = dx * dx + dy * dy + dz * dz + softening2;
            double inverse = rsqrt(distance2);
            if constexpr (kZeroSoftening) {
                const bool zeroDistance = distance2 == 0.0;
                partner = zeroDistance && tileStart + k != target ? tileStart + k : partner;
                inverse = zeroDistance ? 0.0 : inverse;
            }
            const double weight = tile[k].mass * inverse * inverse * inverse;
            ax += dx * weight;
            ay += dy * weight;
            az += dz * weight;
        }
        __syncthreads();
    }
    if (target >= bodyCount)
        return;
    if (kZeroSoftening && partner != force::kNoPartner)
        force::recordCoincidence(coincidence, positionMass, target, partner);
    storePair(gravitationalConstant * ax, gravitationalConstant * ay, gravitationalConstant * az, float(bodyCount),
              acceleration[target], accelerationLow ? accelerationLow + target : nullptr);
}

class DirectFp64CudaSolver final : public CudaForceSolver {
public:
    bool writesAccelerationLowParts() const override { return true; }

    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                  cudaStream_t stream, PhaseTimeline& timeline) override {
        launch(bodies, nullptr, bodies.size(), params, stream);
        timeline.mark(0, stream);
        return 0;
    }
    unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                    const DeviceTargets& targets, cudaStream_t stream,
                                    PhaseTimeline& timeline) override {
        launch(bodies, targets.index, targets.count, params, stream);
        timeline.mark(0, stream);
        return 0;
    }

    std::optional<CoincidenceRecord> takeCoincidentPair(cudaStream_t stream) override {
        return m_coincidence.take(stream);
    }
    std::uint64_t allocatedBytes() const override { return m_coincidence.allocatedBytes(); }

private:
    void launch(DeviceBodies& bodies, const std::uint32_t* targetIndex, std::size_t targetCount,
                const ForceParams& params, cudaStream_t stream) {
        const double softening = params.gravity.softeningLength;
        if (!(softening >= 0.0))
            throw std::invalid_argument("the fp64 direct sum needs a softening length >= 0, got " +
                                        std::to_string(softening));
        if (targetCount == 0)
            return;
        const CoincidenceOutput coincidence =
            softening == 0.0 ? m_coincidence.arm(bodies.loadOrder.data(), stream) : CoincidenceOutput{};
        const LaunchSize size = launchSize1d(targetCount, kFp64TileSize);
        const bool pairs = bodies.hasLowParts();
        const auto kernel = softening == 0.0 ? &directFp64Kernel<true> : &directFp64Kernel<false>;
        kernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
            bodies.positionMass.data(), pairs ? bodies.positionLow.data() : nullptr, bodies.acceleration.data(),
            pairs ? bodies.accelerationLow.data() : nullptr, unsigned(bodies.size()), targetIndex,
            unsigned(targetCount), params.gravity.gravitationalConstant, softening * softening, coincidence);
        checkLaunch("directFp64Kernel");
    }

    CoincidenceReport m_coincidence;
};

} // namespace

std::unique_ptr<CudaForceSolver> makeDirectFp64CudaSolver() {
    return std::make_unique<DirectFp64CudaSolver>();
}

} // namespace gravlab
