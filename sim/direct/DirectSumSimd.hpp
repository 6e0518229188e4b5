#pragma once
// The float direct sum's SIMD kernel: one block of up to kDirectTargetBlock targets against every source, compiled for
// each x86 SIMD target Highway knows (SSSE3, SSE4, AVX2, AVX-512 and a scalar fallback) and dispatched at run time to
// the best one the CPU runs, so one baseline x86-64 binary uses AVX-512 where it exists.
//
// Design note: the caller (DirectSumCpu.cpp) copies a block's target positions into TargetBlock, runs blocks in
// parallel and applies G, so threads, listed targets and the G factor stay out of the per-target code. The kernel
// gives every target lane the same sequence of operations over the sources in index order, whatever lanes and blocks
// it shares, so a target's result does not depend on the block it lands in, the thread count or whether it was listed.
#include <cstddef>

namespace gravlab {

/// The most float lanes of any target compiled (AVX-512: 16); the kernel checks it at compile time.
inline constexpr std::size_t kWidestFloatVector = 16;

/// Targets per block: a multiple of every target's vector width, large enough that a thread's blocks are few.
inline constexpr std::size_t kDirectTargetBlock = 64;
static_assert(kDirectTargetBlock % kWidestFloatVector == 0);

/// The sources every target sums over: the bodies' position and mass arrays, read in place.
struct DirectSources {
    const float* x;
    const float* y;
    const float* z;
    const float* mass;
    std::size_t count;
    float softening2; ///< eps^2; 0 selects the zero-softening kernel (own and coincident terms skipped and counted)
};

/// One block's targets in, their sums out (without G). Slots from count up to the next multiple of kWidestFloatVector
/// must hold copies of a real target (the kernel computes whole vectors of ceil(count / lanes)); their results are
/// thrown away.
struct TargetBlock {
    alignas(64) float x[kDirectTargetBlock];
    alignas(64) float y[kDirectTargetBlock];
    alignas(64) float z[kDirectTargetBlock];
    alignas(64) float ax[kDirectTargetBlock];
    alignas(64) float ay[kDirectTargetBlock];
    alignas(64) float az[kDirectTargetBlock];
    /// Zero softening only: how many sources sit at the target's position, itself included (a float count, exact
    /// below 2^24 bodies, since it is summed in the vector unit beside the accelerations).
    alignas(64) float zeroDistances[kDirectTargetBlock];
    std::size_t count;
};

/// Sums every source's pull on the block's targets with the best SIMD target the CPU runs.
void sumDirectBlock(const DirectSources& sources, TargetBlock& block);

/// The name of the SIMD target sumDirectBlock runs on this CPU ("AVX3" is AVX-512, "AVX2", "SSE4", ...).
const char* directSumSimdTargetName();

} // namespace gravlab
