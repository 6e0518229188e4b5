// Solver "direct-symmetric": every unordered pair evaluated once and applied to both bodies.
//
// Design note (pair-once evaluation on a triangular grid of blocks, Newton's third law per pair). For r = x_j - x_i the
// factor f = r / (|r|^2 + eps^2)^(3/2) is computed once and gives a_i += m_j f and a_j -= m_i f, so the N(N-1)/2 pairs
// cost one reciprocal square root each instead of two.
//   Grid. With B = kSymmetricGroupSize bodies per group there are g = (N - 2) / B + 1 groups per side and
//   g (g + 1) / 2 blocks, one per (group_x <= group_y) on the upper triangle, diagonal included (groupPairOfBlock).
//   Group x's own range starts at B x, group y's partner range at B y + 1, so block (x, y) holds i in [Bx, Bx + B),
//   j in [By + 1, By + B]: a diagonal block holds exactly the pairs j > i of bodies Bx .. Bx + B, and every pair
//   i < j lands in exactly one block (x = i / B, y = (j - 1) / B).
//   Block. kThreads threads each own kBodiesPerThread of the block's B own bodies (thread t owns t + k kThreads) in
//   registers, with their sums: those are touched by one thread only, so shared memory would add traffic for
//   nothing. The B partners are staged in shared memory (xyz + mass, the scaled float4 of ForceMath.cuh) next to B
//   partner accumulators.
//   Rotation. Thread t walks the partners with the rotating index (index + 1) mod 32 inside warp-sized partner tiles,
//   starting at its own lane: at every step the 32 lanes of a warp touch 32 different partner accumulators, so the
//   read-modify-write of an accumulator needs no atomic. A __syncwarp() between steps orders one lane's write before
//   the next lane's read of the same accumulator. Warps run independently, so they must never share a tile at the
//   same time: in phase p warp w works on tile (w + p) mod (B / 32), different for every warp, with a block barrier
//   between phases. After B / 32 phases every thread has met all B partners. (A rotation mod B across the whole
//   block would collide between warps as soon as one warp ran a step ahead of another.)
//   Diagonal blocks. Pair (own slot s, partner p) is j > i exactly when p >= s: thread t's body k meets
//   B - (t + k kThreads) partners; the others are masked by zeroing the factor (no divergence, no NaN: the masked
//   j == i pair has |r| = 0 but eps > 0, and with eps = 0 its infinite factor is selected away).
//   Softening 0 (the exact Newtonian sum) is a second instance: pairs at r^2 == 0 are selected away, and one that is
//   a real pair of distinct bodies (not masked, partner not padding) is remembered per own body and the first goes to
//   the record of CoincidenceRecord.hpp.
//   Combining blocks. Every body's acceleration is a sum over many blocks (its row and its column of the triangle),
//   so the solver resets the acceleration array to (0, 0, 0, N) first (N: every body's work weight, DeviceForces.hpp)
//   and each block adds its B own and B partner sums with one vector atomic per body (red.global.add.v4.f32 on
//   sm_90, adding 0 to w). Atomic fp32 addition is race-free but its order varies, so results can differ in the last
//   bits between runs; that is below the fp32 error of the sums themselves.
//   Bodies past N are staged massless at the origin and their sums are dropped.
//   Range guard: positions scaled by 2^-20 before cubing, the sums rescaled after (ForceMath.cuh explains).
// Very large N: g (g + 1) / 2 exceeds CUDA's 2^31 - 1 blocks from N of about 33 million, so the kernel walks its
// block ids with a grid stride.
#include "device/cuda/CudaCheck.hpp"
#include "direct/cuda/CoincidenceRecord.cuh"
#include "direct/cuda/DeviceForces.hpp"
#include "direct/cuda/ForceMath.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace gravlab {
namespace {

/// Block shape: kThreads threads, each owning kBodiesPerThread of the block's B = kThreads * kBodiesPerThread own
/// bodies. Two shapes ship, both with B = 512 (measured on an H100, docs/PERFORMANCE.md): 64 x 8 spreads each
/// partner step's shared-memory traffic over eight pairs instead of four and is about 6% faster from N = 64k on;
/// with fewer bodies its two-warp blocks leave the multiprocessors short of warps, and 128 x 4 is faster.
template <int kThreadCount, int kBodiesPerThreadCount> struct PairOnceShape {
    static constexpr int kThreads = kThreadCount;
    static constexpr int kBodiesPerThread = kBodiesPerThreadCount;
    static constexpr int kGroupSize = kThreads * kBodiesPerThread;
    static constexpr int kWarpSize = 32;
    static constexpr int kWarps = kThreads / kWarpSize;
    static constexpr int kPartnerTiles = kGroupSize / kWarpSize;
    static_assert(kThreads % kWarpSize == 0);
    static_assert(kPartnerTiles >= kWarps, "every warp needs a tile of its own in each phase");
};
using SmallShape = PairOnceShape<128, 4>;
using LargeShape = PairOnceShape<64, 8>;
constexpr unsigned kLargeShapeMinBodies = 65536;
static_assert(SmallShape::kGroupSize == int(kSymmetricGroupSize) && LargeShape::kGroupSize == int(kSymmetricGroupSize));
constexpr std::uint64_t kMaxGridBlocks = 0x7fffffffu;

struct GroupPair {
    unsigned ownGroup;     // group_x
    unsigned partnerGroup; // group_y >= group_x
};

/// Triangle number t(n) = n (n + 1) / 2.
__device__ __forceinline__ std::uint64_t triangle(std::uint64_t n) {
    return n * (n + 1) / 2;
}

/// Block id -> (group_x, group_y) on the upper triangle, row by row: row x holds y = x .. g - 1. Counting from the
/// last block backwards, rows have 1, 2, 3, ... blocks, so the row is the inverse triangle number of the reversed
/// id (fp64 square root, then an exact integer correction).
__device__ GroupPair groupPairOfBlock(std::uint64_t block, unsigned groupCount) {
    const std::uint64_t fromEnd = triangle(groupCount) - 1 - block;
    std::uint64_t row = static_cast<std::uint64_t>((sqrt(8.0 * double(fromEnd) + 1.0) - 1.0) / 2.0);
    while (triangle(row + 1) <= fromEnd)
        ++row;
    while (triangle(row) > fromEnd)
        --row;
    const std::uint64_t column = fromEnd - triangle(row);
    return {groupCount - 1 - unsigned(row), groupCount - 1 - unsigned(column)};
}

/// Where the eps = 0 instance records, per own body, a partner at r^2 == 0 that is another body (PairOnceShape's
/// own slot s meets partner body partnerBegin + slot).
template <typename Shape> struct CoincidentPartners {
    unsigned partnerBegin;
    unsigned bodyCount;
    unsigned (&ofOwn)[Shape::kBodiesPerThread];
};

/// One partner against this thread's kBodiesPerThread own bodies: the factor once per pair, both sides updated.
/// Work per pair: 3 FADD + 3 FFMA + 1 MUFU.RSQ + 3 FMUL + 3 FFMA (own) + 1 FMUL + 3 FFMA (partner) = 17
/// instructions, 2 interactions; diagonal blocks add a compare and a select. With eps = 0 (kZeroSoftening) a pair at
/// r^2 == 0 is selected away and, when it is a real pair of distinct bodies, its partner remembered: about three
/// more instructions per pair.
template <typename Shape, bool kDiagonal, bool kZeroSoftening>
__device__ __forceinline__ void
meetPartner(const float4 (&own)[Shape::kBodiesPerThread], float3 (&ownSum)[Shape::kBodiesPerThread], float4 partner,
            float4& partnerSum, int partnerSlot, float scaledSoftening2, const CoincidentPartners<Shape>& coincident) {
#pragma unroll
    for (int k = 0; k < Shape::kBodiesPerThread; ++k) {
        const float dx = partner.x - own[k].x;
        const float dy = partner.y - own[k].y;
        const float dz = partner.z - own[k].z;
        const float distance2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, scaledSoftening2)));
        const bool pairOnce = !kDiagonal || partnerSlot >= int(threadIdx.x) + k * Shape::kThreads;
        float inverseDistance = force::rsqrtApprox(distance2);
        if constexpr (kZeroSoftening) {
            const bool zeroDistance = distance2 == 0.0f;
            inverseDistance = zeroDistance ? 0.0f : inverseDistance;
            const unsigned partnerIndex = coincident.partnerBegin + unsigned(partnerSlot);
            const bool real = pairOnce && partnerIndex < coincident.bodyCount;
            coincident.ofOwn[k] = zeroDistance && real ? partnerIndex : coincident.ofOwn[k];
        }
        float inverseCube = inverseDistance * inverseDistance * inverseDistance;
        if constexpr (kDiagonal)
            inverseCube = pairOnce ? inverseCube : 0.0f;
        const float towardPartner = partner.w * inverseCube;
        const float towardOwn = own[k].w * inverseCube;
        ownSum[k].x = fmaf(towardPartner, dx, ownSum[k].x);
        ownSum[k].y = fmaf(towardPartner, dy, ownSum[k].y);
        ownSum[k].z = fmaf(towardPartner, dz, ownSum[k].z);
        partnerSum.x = fmaf(-towardOwn, dx, partnerSum.x);
        partnerSum.y = fmaf(-towardOwn, dy, partnerSum.y);
        partnerSum.z = fmaf(-towardOwn, dz, partnerSum.z);
    }
}

/// All B partners in B / 32 phases of 32 rotating steps (see the design note).
/// Shared memory per step and warp: two 512-byte reads (partner body, partner sum) and one 512-byte write, each
/// conflict-free (32 consecutive float4 of one tile, in rotated order), for 32 * kBodiesPerThread pairs.
template <typename Shape, bool kDiagonal, bool kZeroSoftening>
__device__ void walkPartners(const float4 (&own)[Shape::kBodiesPerThread], float3 (&ownSum)[Shape::kBodiesPerThread],
                             const float4* partnerBody, float4* partnerSum, float scaledSoftening2,
                             const CoincidentPartners<Shape>& coincident) {
    constexpr int kWarpSize = Shape::kWarpSize;
    const int lane = threadIdx.x % kWarpSize;
    const int warp = threadIdx.x / kWarpSize;
    for (int phase = 0; phase < Shape::kPartnerTiles; ++phase) {
        const int tileBegin = ((warp + phase) % Shape::kPartnerTiles) * kWarpSize;
#pragma unroll 4
        for (int step = 0; step < kWarpSize; ++step) {
            const int slot = tileBegin + ((lane + step) & (kWarpSize - 1));
            float4 sum = partnerSum[slot];
            meetPartner<Shape, kDiagonal, kZeroSoftening>(own, ownSum, partnerBody[slot], sum, slot, scaledSoftening2,
                                                          coincident);
            partnerSum[slot] = sum;
            __syncwarp();
        }
        __syncthreads();
    }
}

// Work per block: B^2 pairs (B (B + 1) / 2 on the diagonal), 17 instructions each plus about 7 per partner step
// (spread over kBodiesPerThread pairs). Device memory per block: 2 B bodies read (16 bytes each) and 2 B vector
// atomics; over the whole grid that is 2 N / B reads and atomic adds per body, under 1% of the time for B = 512.
template <typename Shape, bool kZeroSoftening>
__global__ void __launch_bounds__(Shape::kThreads)
    directSymmetricForcesKernel(const float4* __restrict__ positionMass, float4* __restrict__ acceleration,
                                unsigned bodyCount, unsigned groupCount, float scaledSoftening2,
                                float gravitationalConstant, CoincidenceOutput coincidence) {
    constexpr int kThreads = Shape::kThreads;
    constexpr int kBodiesPerThread = Shape::kBodiesPerThread;
    constexpr int kGroupSize = Shape::kGroupSize;
    __shared__ float4 partnerBody[kGroupSize];
    __shared__ float4 partnerSum[kGroupSize];

    const std::uint64_t blockCount = std::uint64_t(groupCount) * (groupCount + 1) / 2;
    for (std::uint64_t block = blockIdx.x; block < blockCount; block += gridDim.x) {
        const GroupPair groups = groupPairOfBlock(block, groupCount);
        const unsigned ownBegin = groups.ownGroup * kGroupSize;
        const unsigned partnerBegin = groups.partnerGroup * kGroupSize + 1;

        for (int slot = threadIdx.x; slot < kGroupSize; slot += kThreads) {
            partnerBody[slot] = force::loadScaledOrMassless(positionMass, partnerBegin + slot, bodyCount);
            partnerSum[slot] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        float4 own[kBodiesPerThread];
        float3 ownSum[kBodiesPerThread];
        unsigned ownPartner[kBodiesPerThread];
#pragma unroll
        for (int k = 0; k < kBodiesPerThread; ++k) {
            own[k] = force::loadScaledOrMassless(positionMass, ownBegin + threadIdx.x + k * kThreads, bodyCount);
            ownSum[k] = make_float3(0.0f, 0.0f, 0.0f);
            ownPartner[k] = force::kNoPartner;
        }
        __syncthreads();

        const CoincidentPartners<Shape> coincident{partnerBegin, bodyCount, ownPartner};
        if (groups.ownGroup == groups.partnerGroup)
            walkPartners<Shape, true, kZeroSoftening>(own, ownSum, partnerBody, partnerSum, scaledSoftening2,
                                                      coincident);
        else
            walkPartners<Shape, false, kZeroSoftening>(own, ownSum, partnerBody, partnerSum, scaledSoftening2,
                                                       coincident);

#pragma unroll
        for (int k = 0; k < kBodiesPerThread; ++k) {
            const unsigned index = ownBegin + threadIdx.x + k * kThreads;
            if (index >= bodyCount)
                continue;
            if (kZeroSoftening && ownPartner[k] != force::kNoPartner)
                force::recordCoincidence(coincidence, positionMass, index, ownPartner[k]);
            force::atomicAddAcceleration(acceleration, index,
                                         force::unscaledAcceleration(ownSum[k], gravitationalConstant));
        }
        for (int slot = threadIdx.x; slot < kGroupSize; slot += kThreads) {
            const unsigned index = partnerBegin + slot;
            if (index < bodyCount) {
                const float4 sum = partnerSum[slot];
                force::atomicAddAcceleration(
                    acceleration, index,
                    force::unscaledAcceleration(make_float3(sum.x, sum.y, sum.z), gravitationalConstant));
            }
        }
        __syncthreads(); // the next block id restages the shared arrays
    }
}

/// Launches the pair-once kernel of the given shape; the accelerations must have been reset on stream.
template <typename Shape, bool kZeroSoftening>
void launchPairOnceShape(const float4* positionMass, float4* acceleration, unsigned bodyCount,
                         const GravityParams& gravity, const CoincidenceOutput& coincidence, cudaStream_t stream) {
    const unsigned groupCount = (bodyCount - 2) / Shape::kGroupSize + 1;
    const std::uint64_t blockCount = std::uint64_t(groupCount) * (groupCount + 1) / 2;
    const unsigned gridBlocks = static_cast<unsigned>(std::min(blockCount, kMaxGridBlocks));
    directSymmetricForcesKernel<Shape, kZeroSoftening><<<gridBlocks, Shape::kThreads, 0, stream>>>(
        positionMass, acceleration, bodyCount, groupCount, scaledSoftening2(gravity),
        static_cast<float>(gravity.gravitationalConstant), coincidence);
    checkLaunch("directSymmetricForcesKernel");
}

/// The shape for bodyCount, with or without softening.
template <bool kZeroSoftening>
void launchPairOnce(const float4* positionMass, float4* acceleration, unsigned bodyCount, const GravityParams& gravity,
                    const CoincidenceOutput& coincidence, cudaStream_t stream) {
    if (bodyCount >= kLargeShapeMinBodies)
        launchPairOnceShape<LargeShape, kZeroSoftening>(positionMass, acceleration, bodyCount, gravity, coincidence,
                                                        stream);
    else
        launchPairOnceShape<SmallShape, kZeroSoftening>(positionMass, acceleration, bodyCount, gravity, coincidence,
                                                        stream);
}

} // namespace

void launchDirectSymmetricForces(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                                 const GravityParams& gravity, const CoincidenceOutput& coincidence,
                                 cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    if (bodyCount > kMaxBodyCount)
        throw std::invalid_argument("launchDirectSymmetricForces: body count above kMaxBodyCount");
    launchResetAccelerations(acceleration, bodyCount, float(bodyCount), stream);
    if (bodyCount == 1)
        return; // no pairs: a lone body feels no force
    const unsigned count = static_cast<unsigned>(bodyCount);
    if (gravity.softeningLength != 0.0) {
        launchPairOnce<false>(positionMass, acceleration, count, gravity, coincidence, stream);
        return;
    }
    if (coincidence.record == nullptr || coincidence.loadOrder == nullptr)
        throw std::invalid_argument("launchDirectSymmetricForces: softening 0 needs a coincident-pair record");
    launchPairOnce<true>(positionMass, acceleration, count, gravity, coincidence, stream);
}

} // namespace gravlab
