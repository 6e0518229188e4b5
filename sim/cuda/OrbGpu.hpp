#pragma once
// The GPU ORB: the cells of OrbCpu (same algorithm, layout and count-balance targets, see Orb.hpp), built on the
// device bodies with all cells of one tree level split together.
//
// Design note:
//   Data: the bodies are the DeviceBodies float4 arrays (position + mass, velocity + colour key, acceleration), the
//   layout every other kernel already uses, so ORB runs on the simulation's own arrays with no conversion. All three
//   arrays are permuted: the acceleration is kept between steps (KDK), so it must follow its body.
//   Structure first: under count balance every cell's body range, domains and children follow from N and np alone
//   (targets are global: the split of a cell is floor(N (f + l) / np)), so the host lays out the whole cell array and
//   one OrbSplit per inner cell before any device work. Only boxes, cut axes and cut positions depend on the data.
//   Root: one bounds reduction on ordered coordinate keys (a float mapped to an unsigned with the same order, -0 made
//   +0), which also counts non-finite positions; the host waits for it once and refuses non-finite input before any
//   body is moved.
//   Per level (one launch per step for all cells of the level, a body finds its cell by binary search over the
//   level's sorted ranges):
//     1. each cell picks its longest axis; each body writes its key along its cell's axis (4 bytes per body);
//     2. cut finder, the key of the body of rank k = split - begin in (coordinate, index) order, found by either
//        - radix select (the default): 4 passes, most significant byte first; each builds every cell's 256-bin
//          histogram of that byte over the bodies matching the bytes fixed so far (block histograms in shared memory
//          for the one or two cells a block's chunk of bodies touches, warp-aggregated atomics into global bins), then
//          one warp per cell scans its bins for the bucket holding the remaining rank (Merrill and Garland's
//          radix select, as in CUB and RAFT's select_k); 4 passes over 8 bytes per body instead of 32;
//        - bisection (the baseline): 32 rounds, each counts the bodies at or below a trial key per cell
//          (warp-aggregated atomics) and halves the cell's bracket [key(lower), key(upper)];
//     3. ties: bodies below the pivot go left; bodies equal to it go left in index order until k are left (a global
//        exclusive scan of the tie flags, differenced at the cell's begin, ranks them), which is Orb.hpp's
//        (coordinate, index) rule, so the children hold exactly the bodies OrbCpu gives them;
//     4. stable partition: a global exclusive scan of the go-left flags gives every body its destination; each body
//        array is then scattered into one float4 scratch array and copied back, one array at a time;
//     5. the cut is the midpoint of the largest left key (a warp-aggregated atomicMax) and the pivot.
//   Memory beyond the bodies' 48 bytes: 16 bytes per body of scatter scratch (one array, not a second copy of the
//   state), 16 bytes per body of keys, cell ids, flags and scan, plus CUB's scan scratch, O(np) cells and 1 KiB of
//   radix bins per cell of the widest level.
//   Both this partition and OrbCpu's are stable, so the next level's index tie-break sees the same order and ranges,
//   cuts and each leaf's bodies agree with OrbCpu exactly, also with many bodies on a cut plane.
// Not yet: work balance (weights), skipping finished leaves' bodies, fewer than 32 rounds when a cell's bracket is
// narrow (bisection).
#include "DeviceBodies.hpp"
#include "DeviceBuffer.hpp"
#include "OrbGpuKernels.hpp"

#include <Orb.hpp>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

namespace gravlab {

class OrbGpu {
public:
    explicit OrbGpu(OrbCutFinder cutFinder = OrbCutFinder::RadixSelect) : m_cutFinder(cutFinder) {}

    /// Device bytes per body the build needs beyond the bodies themselves (scatter scratch and working arrays).
    static constexpr std::uint64_t kScratchBytesPerBody = 32;

    /// Splits the device bodies into domainCount domains under count balance, permuting positionMass,
    /// velocityColor and acceleration in place. Waits once for the bounding box; the rest is enqueued on stream.
    /// Throws InvalidParameterError (field "orb-domains") when domainCount lies outside [1, N]; std::invalid_argument
    /// when N is 0 or above 2^32 - 1, or a position is not finite. On a throw the bodies are left untouched.
    void build(DeviceBodies& bodies, std::uint32_t domainCount, cudaStream_t stream);

    /// The cells, breadth first as in OrbCpu; waits for the build.
    std::vector<OrbCell> downloadCells(cudaStream_t stream) const;
    /// levelBegin()[d] is the index of the first cell of depth d; the last entry is the number of cells.
    const std::vector<std::size_t>& levelBegin() const { return m_levelBegin; }

private:
    void layOutCells(std::uint32_t bodyCount, std::uint32_t domainCount);
    void reserveScratch(std::size_t bodyCount);

    OrbCutFinder m_cutFinder;
    std::vector<OrbCell> m_hostCells;             ///< the layout; boxes of all but the root are filled on the device
    std::vector<OrbSplit> m_hostSplits;           ///< one per inner cell, breadth first
    std::vector<std::uint32_t> m_levelSplitBegin; ///< first split of each level that has any
    std::vector<std::size_t> m_levelBegin;
    DeviceBuffer<OrbCell> m_cells;
    DeviceBuffer<OrbSplit> m_splits;
    DeviceBuffer<std::uint32_t> m_bounds;
    DeviceBuffer<std::uint32_t> m_keys;
    DeviceBuffer<std::int32_t> m_bodySplit;
    DeviceBuffer<std::uint32_t> m_flags;
    DeviceBuffer<std::uint32_t> m_prefix;
    DeviceBuffer<float4> m_scratch;
    DeviceBuffer<std::uint32_t> m_radixBins;
    DeviceBuffer<unsigned char> m_scanScratch;
};

} // namespace gravlab
