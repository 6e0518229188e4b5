#pragma once
// Which octants of a cell the bounding box of some of its octants covers: the walk groups of both trees (the CPU's
// TreeWalkGroups.cpp and the GPU's TreeGroups.cu) grow a group over children whose combined box must not overlap a
// child left out, and this is that box in octant bits.
#include <gravlab/sim/HostDevice.hpp>

namespace gravlab {

/// The octants inside the bounding box of the octants in mask (bit k for octant k, x the highest bit of k): those
/// whose x, y and z bits each occur among the mask's octants.
GRAVLAB_HOST_DEVICE unsigned octantsSpanned(unsigned mask) {
    unsigned xs = 0, ys = 0, zs = 0; // bit v set when a coordinate bit of value v occurs
    for (unsigned octant = 0; octant < 8; ++octant) {
        if ((mask >> octant & 1u) != 0) {
            xs |= 1u << (octant >> 2 & 1u);
            ys |= 1u << (octant >> 1 & 1u);
            zs |= 1u << (octant & 1u);
        }
    }
    unsigned spanned = 0;
    for (unsigned octant = 0; octant < 8; ++octant)
        if ((xs >> (octant >> 2 & 1u) & ys >> (octant >> 1 & 1u) & zs >> (octant & 1u) & 1u) != 0)
            spanned |= 1u << octant;
    return spanned;
}

} // namespace gravlab
