// The measured float FMA peak (see CpuFmaPeak.hpp).
//
// Design note: each thread runs kChains independent accumulators acc = acc * a + b for a fixed number of rounds; with
// a just below 1 and b small the values settle near b / (1 - a), far from overflow and denormals, so every FMA runs
// at full speed. 12 chains cover a 4-cycle FMA latency on 2 pipes (8 in flight) with margin, and with a and b they
// use 14 registers, so they fit the 16 of SSE/AVX2 without spilling. Work per round per thread: kChains FMAs of one
// vector each, no memory traffic. The chains' sum is returned so the compiler cannot drop them.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/CpuFmaPeak.cpp"
#include <gravlab/sim/CpuFmaPeak.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <hwy/foreach_target.h> // IWYU pragma: keep
#include <hwy/highway.h>
#include <omp.h>

HWY_BEFORE_NAMESPACE();
namespace gravlab {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Internal linkage: other Highway files of gravlab_sim have per-target namespaces of the same names.
namespace {

constexpr std::size_t kChains = 12;

/// Runs rounds x kChains vector FMAs; returns their lanes' sum.
float FmaChains(std::int64_t rounds) {
    const hn::ScalableTag<float> d;
    const auto factor = hn::Set(d, 0.999999f);
    const auto increment = hn::Set(d, 1e-6f);
    hn::Vec<decltype(d)> chains[kChains];
    for (std::size_t c = 0; c < kChains; ++c)
        chains[c] = hn::Set(d, float(c));
    for (std::int64_t round = 0; round < rounds; ++round)
        for (std::size_t c = 0; c < kChains; ++c)
            chains[c] = hn::MulAdd(chains[c], factor, increment);
    for (std::size_t c = 1; c < kChains; ++c)
        chains[0] = hn::Add(chains[0], chains[c]);
    return hn::GetLane(hn::SumOfLanes(d, chains[0]));
}

/// Flops of one round of FmaChains on this target: an FMA per chain and lane, counted as 2.
double FlopsPerRound() {
    return 2.0 * double(kChains) * double(hn::Lanes(hn::ScalableTag<float>()));
}

const char* FmaTargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace
} // namespace HWY_NAMESPACE
} // namespace gravlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gravlab {

HWY_EXPORT(FmaChains);
HWY_EXPORT(FlopsPerRound);
HWY_EXPORT(FmaTargetName);

namespace {

/// ~30 ms per trial at 200 GFLOP/s per thread with 16 lanes; narrower targets take proportionally longer.
constexpr std::int64_t kRoundsPerTrial = std::int64_t{1} << 24;
constexpr int kTrials = 5;

/// Seconds all threads take for one trial (the slowest thread's finish).
double timeTrial() {
    float sum = 0;
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel reduction(+ : sum)
    sum += HWY_DYNAMIC_DISPATCH(FmaChains)(kRoundsPerTrial);
    const auto end = std::chrono::steady_clock::now();
    // A volatile store is observable, so the chains that feed it cannot be optimised away.
    const volatile float keptSum = sum;
    (void)keptSum;
    return std::chrono::duration<double>(end - start).count();
}

} // namespace

CpuFmaPeak measureCpuFmaPeak() {
    CpuFmaPeak peak;
    peak.threads = omp_get_max_threads();
    peak.simdTarget = HWY_DYNAMIC_DISPATCH(FmaTargetName)();
    timeTrial(); // warm-up: wakes the threads and lets clocks settle
    double best = timeTrial();
    for (int trial = 1; trial < kTrials; ++trial)
        best = std::min(best, timeTrial());
    const double flops = HWY_DYNAMIC_DISPATCH(FlopsPerRound)() * double(kRoundsPerTrial) * double(peak.threads);
    peak.flopsPerSecond = flops / best;
    return peak;
}

} // namespace gravlab
#endif
