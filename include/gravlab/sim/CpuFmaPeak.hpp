#pragma once
// The CPU's measured float multiply-add peak, the ceiling `gravlab bench` sets the CPU direct sum's rate against.
//
// Design note: a microkernel of many independent fused multiply-add chains (more than the FMA latency times the
// number of FMA pipes, so the pipes never wait) runs on every OpenMP thread at once, compiled per SIMD target and
// dispatched like the direct sum (Highway), so it measures the vector width the direct sum gets. An FMA counts as two
// flops. The best of several trials is reported: on a shared machine other work only slows a trial down.
#include <string>

namespace gravlab {

struct CpuFmaPeak {
    double flopsPerSecond = 0; ///< float flops per second of all threads together, an FMA counted as 2
    int threads = 0;           ///< OpenMP threads that ran the chains
    std::string simdTarget;    ///< the Highway target the chains ran on ("AVX3", "AVX2", ...)
};

/// Runs the FMA chains on all OpenMP threads for about 0.2 s in all and returns the best trial's rate.
CpuFmaPeak measureCpuFmaPeak();

} // namespace gravlab
