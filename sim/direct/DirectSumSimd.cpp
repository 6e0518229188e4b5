// The float direct sum's SIMD kernel (see DirectSumSimd.hpp), written once with Highway and compiled per target by
// foreach_target.h; HWY_DYNAMIC_DISPATCH picks the best target the CPU runs on the first call.
//
// Design note: lanes hold targets and each source is broadcast to all lanes, so a target's sum runs over the sources
// in index order in one lane: no horizontal reduction, no source tail (any N works), and a lane's bits do not depend
// on its neighbours. A tile of kTileVectors target vectors (4 with AVX-512's 32 registers: 4 x 7 accumulators and
// positions; 2 with the 16 of SSE/AVX2) shares each source's four broadcasts. Measured on one Zen 5 core (AVX-512,
// N = 16384 and 65536): tiles of 1 to 6 target vectors all ran at 8.7-8.8e9 interactions/s, and lanes-as-sources
// (targets broadcast, source vectors loaded, a horizontal sum per target at the end) at 8.4-8.6e9: the kernel is bound
// by its multiply-adds, not its loads, so the layout without a source tail or a reduction stayed.
// Work per interaction (per lane): 3 sub, 3 fma for r^2 + eps^2, 1 min (an overflowed r^2 becomes the largest float),
// the approximate 1/sqrt (AVX-512's 14-bit vrsqrt14ps, SSE/AVX2's 12-bit rsqrtps), one Newton-Raphson step written as
// 2y' = y (3 - r^2 y^2) (3 instructions; it squares the relative error, to ~2^-27 and ~2e-7; the factor 2^3 leaves
// the sums exactly at the end), 3 mul for 8 m y'^3 and 3 fma into the sums: 17 instructions (23 flops, an FMA counted
// as 2), 12 of them multiplies or FMAs, which share the two FMA pipes. The measured FMA peak P (CpuFmaPeak.hpp) is 2
// flops per FMA-pipe instruction and lane, so the kernel can reach at most P / 24 interactions/s, 83% of the P / 20
// that `bench` reports as the peak's equivalent at the customary 20 flops per interaction (the GPU's count, kept so the
// rates compare across devices); it reaches 64% of P / 20 (8.7e9 interactions/s per Zen 5 core, P = 270 GFLOP/s).
// The scalar fallback's estimate (Highway's bit trick with one step, ~2e-3) takes a second step. With zero softening
// a body's own term has r^2 = 0: it and a coincident partner are selected away and counted (2 more instructions).
// Bytes: 16 per source per tile, from L1/L2 (N = 65536 sources fill 1 MiB).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "direct/DirectSumSimd.cpp"
#include "direct/DirectSumSimd.hpp"

#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace gravlab {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Internal linkage: other Highway files of gravlab_sim have per-target namespaces of the same names.
namespace {

using FloatTag = hn::ScalableTag<float>;
using FloatVec = hn::Vec<FloatTag>;
static_assert(HWY_MAX_BYTES / sizeof(float) <= kWidestFloatVector, "a block's padding must cover a whole vector");

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
constexpr std::size_t kTileVectors = 4;
#else
constexpr std::size_t kTileVectors = 2;
#endif

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
constexpr int kExtraNewtonSteps = 1;
#else
constexpr int kExtraNewtonSteps = 0;
#endif

/// Twice 1/sqrt(r2), to about float accuracy: the hardware estimate y, then the Newton-Raphson step written as
/// 2 y' = y (3 - r2 y^2), which saves the multiplication by 1/2 (the caller takes out the factor 2^3 = 8 exactly).
HWY_INLINE FloatVec twiceInverseSqrt(FloatTag d, FloatVec r2) {
    FloatVec y = hn::ApproximateReciprocalSqrt(r2);
    for (int step = 0; step < kExtraNewtonSteps; ++step)
        y = hn::Mul(hn::Mul(y, hn::Set(d, 0.5f)), hn::NegMulAdd(r2, hn::Mul(y, y), hn::Set(d, 3.0f)));
    return hn::Mul(y, hn::NegMulAdd(r2, hn::Mul(y, y), hn::Set(d, 3.0f)));
}

/// Sums all sources into kVectors target vectors starting at block slot first.
template <std::size_t kVectors, bool kZeroSoftening>
HWY_INLINE void sumTile(const DirectSources& sources, TargetBlock& block, std::size_t first) {
    const FloatTag d;
    const std::size_t lanes = hn::Lanes(d);
    FloatVec targetX[kVectors], targetY[kVectors], targetZ[kVectors];
    FloatVec sumX[kVectors], sumY[kVectors], sumZ[kVectors], zeroDistances[kVectors];
    for (std::size_t v = 0; v < kVectors; ++v) {
        targetX[v] = hn::Load(d, block.x + first + v * lanes);
        targetY[v] = hn::Load(d, block.y + first + v * lanes);
        targetZ[v] = hn::Load(d, block.z + first + v * lanes);
        sumX[v] = sumY[v] = sumZ[v] = zeroDistances[v] = hn::Zero(d);
    }
    const FloatVec softening2 = hn::Set(d, sources.softening2);
    const FloatVec largestFloat = hn::Set(d, std::numeric_limits<float>::max());
    for (std::size_t j = 0; j < sources.count; ++j) {
        const FloatVec sourceX = hn::Set(d, sources.x[j]), sourceY = hn::Set(d, sources.y[j]);
        const FloatVec sourceZ = hn::Set(d, sources.z[j]), sourceMass = hn::Set(d, sources.mass[j]);
        for (std::size_t v = 0; v < kVectors; ++v) {
            const FloatVec dx = hn::Sub(sourceX, targetX[v]);
            const FloatVec dy = hn::Sub(sourceY, targetY[v]);
            const FloatVec dz = hn::Sub(sourceZ, targetZ[v]);
            // An overflowed r^2 (a body beyond 1e19) is clamped to the largest float: its 1/r^3 underflows to 0 as
            // the exact 1/sqrt(inf) did, where the Newton step would turn inf x 0 into NaN.
            const FloatVec distance2 =
                hn::Min(hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, softening2))), largestFloat);
            FloatVec twiceInverse = twiceInverseSqrt(d, distance2);
            if constexpr (kZeroSoftening) {
                const auto atZero = hn::Eq(distance2, hn::Zero(d));
                twiceInverse = hn::IfThenZeroElse(atZero, twiceInverse);
                zeroDistances[v] = hn::Add(zeroDistances[v], hn::IfThenElseZero(atZero, hn::Set(d, 1.0f)));
            }
            // 8 m / r^3; the sums are scaled by 1/8 (exact) once at the end.
            const FloatVec weight = hn::Mul(hn::Mul(sourceMass, twiceInverse), hn::Mul(twiceInverse, twiceInverse));
            sumX[v] = hn::MulAdd(weight, dx, sumX[v]);
            sumY[v] = hn::MulAdd(weight, dy, sumY[v]);
            sumZ[v] = hn::MulAdd(weight, dz, sumZ[v]);
        }
    }
    const FloatVec eighth = hn::Set(d, 0.125f);
    for (std::size_t v = 0; v < kVectors; ++v) {
        hn::Store(hn::Mul(sumX[v], eighth), d, block.ax + first + v * lanes);
        hn::Store(hn::Mul(sumY[v], eighth), d, block.ay + first + v * lanes);
        hn::Store(hn::Mul(sumZ[v], eighth), d, block.az + first + v * lanes);
        hn::Store(zeroDistances[v], d, block.zeroDistances + first + v * lanes);
    }
}

/// Whole tiles, then one narrower tile for the remaining target vectors.
template <bool kZeroSoftening> HWY_INLINE void sumBlock(const DirectSources& sources, TargetBlock& block) {
    const std::size_t lanes = hn::Lanes(FloatTag());
    const std::size_t vectors = (block.count + lanes - 1) / lanes;
    std::size_t vector = 0;
    for (; vector + kTileVectors <= vectors; vector += kTileVectors)
        sumTile<kTileVectors, kZeroSoftening>(sources, block, vector * lanes);
    switch (vectors - vector) { // 3 and 2 remain only when a tile holds 4 vectors
    case 3:
        sumTile<3, kZeroSoftening>(sources, block, vector * lanes);
        break;
    case 2:
        sumTile<2, kZeroSoftening>(sources, block, vector * lanes);
        break;
    case 1:
        sumTile<1, kZeroSoftening>(sources, block, vector * lanes);
        break;
    default:
        break;
    }
}

void SumDirectBlock(const DirectSources& sources, TargetBlock& block) {
    if (sources.softening2 == 0.0f)
        sumBlock<true>(sources, block);
    else
        sumBlock<false>(sources, block);
}

const char* SimdTargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace
} // namespace HWY_NAMESPACE
} // namespace gravlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gravlab {

HWY_EXPORT(SumDirectBlock);
HWY_EXPORT(SimdTargetName);

void sumDirectBlock(const DirectSources& sources, TargetBlock& block) {
    HWY_DYNAMIC_DISPATCH(SumDirectBlock)(sources, block);
}

const char* directSumSimdTargetName() {
    return HWY_DYNAMIC_DISPATCH(SimdTargetName)();
}

} // namespace gravlab
#endif
