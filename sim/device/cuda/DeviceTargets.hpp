#pragma once
// The bodies a partial force evaluation is for: hierarchical time steps need, at each sub-step, the accelerations of
// the bodies whose step ends there (the active ones) against all bodies.
//
// Design note: the list serves solvers that launch one thread or slot per target (the direct sums); the per-body flags
// serve those that work on fixed groups of bodies (the tree walks a group when any of its bodies is listed). A solver
// that computes bodies it was not asked for (a walked group's inactive bodies) adds them to surplusBodies, so the cost
// reported counts the work done.
#include <cstddef>
#include <cstdint>

namespace gravlab {

struct DeviceTargets {
    const std::uint32_t* index = nullptr; ///< device: count distinct body indices, any order
    std::size_t count = 0;
    const std::uint8_t* isTarget = nullptr;      ///< device: one per body, 1 where listed
    unsigned long long* surplusBodies = nullptr; ///< device counter; may be null
};

} // namespace gravlab
