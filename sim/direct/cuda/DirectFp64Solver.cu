// The fp64 direct sum on the GPU: every pair in double precision, the reference a user can run at GPU speed (the
// counterpart of the -fp64 mode of NVIDIA's nbody sample), and the CUDA twin of the CPU fp64 oracle (DirectSumCpu.hpp).
//
// Design note: one thread per target body accumulates a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
// in double, with the sources staged through shared memory a block-sized tile at a time (converted from the float
// state once per tile). The self term is exactly zero for eps > 0 and selected away for eps = 0, where a coincident
// pair of distinct bodies is reported instead of turned into NaN (CoincidenceRecord.hpp). Positions are the float
// state, so the sum is exact up to fp64 rounding of float inputs: what the CPU oracle computes. acceleration.w gets N,
// every body's work.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "direct/cuda/CoincidenceRecord.cuh"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <memory>
#include <stdexcept>

namespace gravlab {
namespace {

constexpr unsigned kFp64TileSize = 256;

struct SourceFp64 {
    double x, y, z, mass;
};

// Per target and source: 3 subtractions, 3 FMAs for r^2 + eps^2, one rsqrt, 3 multiplications, 3 FMAs (fp64); loads
// 32 bytes of shared memory per source, 16 bytes of global memory per source per block. With eps > 0, r^2 > 0 always
// and the own term is 0 * finite; the eps = 0 instance adds a compare and two selects: a term with r^2 == 0 (the
// target itself, or another body at its position) is selected away, the other body remembered and the first such
// pair recorded (CoincidenceRecord.hpp).
template <bool kZeroSoftening>
__global__ void directFp64Kernel(const float4* __restrict__ positionMass, float4* __restrict__ acceleration,
                                 unsigned bodyCount, double gravitationalConstant, double softening2,
                                 CoincidenceOutput coincidence) {
    __shared__ SourceFp64 tile[kFp64TileSize];
    const unsigned target = blockIdx.x * blockDim.x + threadIdx.x;
    double xi = 0.0, yi = 0.0, zi = 0.0;
    if (target < bodyCount) {
        const float4 own = positionMass[target];
        xi = own.x;
        yi = own.y;
        zi = own.z;
    }
    double ax = 0.0, ay = 0.0, az = 0.0;
    unsigned partner = force::kNoPartner;
    for (unsigned tileStart = 0; tileStart < bodyCount; tileStart += kFp64TileSize) {
        const unsigned source = tileStart + threadIdx.x;
        if (source < bodyCount) {
            const float4 body = positionMass[source];
            tile[threadIdx.x] = {body.x, body.y, body.z, body.w};
        }
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
    acceleration[target] = make_float4(float(gravitationalConstant * ax), float(gravitationalConstant * ay),
                                       float(gravitationalConstant * az), float(bodyCount));
}

class DirectFp64CudaSolver final : public CudaForceSolver {
public:
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>&, const ForceParams& params,
                                  cudaStream_t stream, PhaseTimeline& timeline) override {
        const double softening = params.gravity.softeningLength;
        if (!(softening >= 0.0))
            throw std::invalid_argument("the fp64 direct sum needs a softening length >= 0, got " +
                                        std::to_string(softening));
        const CoincidenceOutput coincidence =
            softening == 0.0 ? m_coincidence.arm(bodies.loadOrder.data(), stream) : CoincidenceOutput{};
        const std::size_t count = bodies.size();
        const LaunchSize launch = launchSize1d(count, kFp64TileSize);
        const auto kernel = softening == 0.0 ? &directFp64Kernel<true> : &directFp64Kernel<false>;
        kernel<<<launch.blocks, launch.threadsPerBlock, 0, stream>>>(
            bodies.positionMass.data(), bodies.acceleration.data(), unsigned(count),
            params.gravity.gravitationalConstant, softening * softening, coincidence);
        checkLaunch("directFp64Kernel");
        timeline.mark(0, stream);
        return 0;
    }
    std::optional<CoincidenceRecord> takeCoincidentPair(cudaStream_t stream) override {
        return m_coincidence.take(stream);
    }
    std::uint64_t allocatedBytes() const override { return m_coincidence.allocatedBytes(); }

private:
    CoincidenceReport m_coincidence;
};

} // namespace

std::unique_ptr<CudaForceSolver> makeDirectFp64CudaSolver() {
    return std::make_unique<DirectFp64CudaSolver>();
}

} // namespace gravlab
