#pragma once
// When a CPU loop is worth an OpenMP team.
//
// Design note: opening a parallel region and its closing barrier cost microseconds on an idle machine and up to a
// scheduler time slice (milliseconds) on a busy one, where a thread spinning at the barrier waits for a descheduled
// partner. Loops therefore fork only when their work clearly exceeds that: pair loops above kMinPairsForParallel
// pair evaluations (~0.3 ms of work), per-body sampling above kMinBodiesForParallelSampling bodies, and streaming O(N)
// passes above kMinBodiesForParallelStreaming bodies (where a pass takes ~0.1 ms).
#include <cstdint>

namespace gravlab {

inline constexpr std::int64_t kMinPairsForParallel = std::int64_t{1} << 18;
inline constexpr std::int64_t kMinBodiesForParallelSampling = std::int64_t{1} << 12;
inline constexpr std::int64_t kMinBodiesForParallelStreaming = std::int64_t{1} << 16;

} // namespace gravlab
