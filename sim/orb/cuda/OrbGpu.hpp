#pragma once
// The GPU ORB: the cells of OrbCpu (same algorithm, layout and balance targets, see Orb.hpp), built on the device with
// all cells of one tree level split together, under count or work balance.
//
// Design note ("keys and index first, move the bodies once"):
//   Records: one pass extracts a compact work record per body into structure-of-arrays buffers (x, y, z as three float
//   arrays and the body's index before the build, 16 bytes; plus its weight under work balance), and counts the
//   bounding box, non-finite positions and invalid weights on the way. Levels partition only these records, between
//   two buffers (ping-pong, 32 bytes per body), and at the end each of the three float4 body arrays (positionMass,
//   velocityColor, acceleration: the acceleration is kept between steps, KDK; in double precision also their low
//   parts, DeviceBodies::reorderedArrays) is gathered once through the final index into the buffer freed before it
//   (first the free record buffer, then the array gathered last); afterwards the buffers change owners on the host
//   (as in migration), so no array is copied back (that copy was 30 of 460 us at 2^20 bodies). The bodies' load
//   order (4 bytes each) rides along with the first gather into a buffer of its own, which then changes owners with
//   bodies.loadOrder: kernels of its own cost 1.3% at 2^20 bodies and 0.7% at 2^27, and a copy back after gathering
//   it into dead record space 1.3 us (work balance) to 2.8 us (count) at 2^20 / 64 (H200). The positions-only build
//   (buildPositions) partitions the records the same way and copies the final coordinates back into the caller's
//   three arrays.
//   Tiles: each level is laid out on the device into tiles of kOrbTileBodies bodies, each inside exactly one cell, so
//   that work balance, whose ranges depend on the data, needs no host round trip: the root's level (and every level
//   under bisection) by one block that scans the level's cells, the levels below it under radix select by the
//   children's layout after the scatter above (below). Every level kernel runs one block per tile (but two, below:
//   chunked walks). Cells that are already leaves are not touched, except at the last level, where leaves one level up
//   (np not a power of two) are copied once to the final buffer.
//   Cut finder, the key of the pivot body of each cell (in the cell's (coordinate, index) order, Orb.hpp):
//     - radix select (the default): per pass, each tile builds a 2048-bin histogram of one 11-bit digit of the ordered
//       coordinate key, measured from the key of the cell's lower side, over its bodies that match the digits fixed so
//       far (shared memory; in a split's first pass the row's two most common digits added once by a leader lane,
//       later digits lane by lane, since they spread over the bins), adds it to its cell's bins,
//       and the last tile of the cell (a counter; where the last pass tallies, a kernel after the pass, below) picks
//       the bin holding the remaining rank or weight (Merrill and Garland's radix select, as in CUB and RAFT's
//       select_k). The digits span the cell's key range alone: as many passes as its bits need (at most 3; the last
//       digit ends at bit 0, so a cell joins the level's last passes), and a first digit that spreads the cell's bodies
//       over its bins instead of over a float's exponents. That needs every record inside its cell's box, which the
//       cuts keep and the extraction starts (non-finite coordinates, which make the build throw, enter the records as
//       0). Against digits of the absolute key, skipping those the box fixes: 2^27 / 4096 48.6 -> 47.3 ms (count), 63.1
//       -> 61.5 (work, with its last tallying pass held to 64 registers), 2^20 / 64 the same. A cell of one tile
//       selects in shared memory alone. A tile adds its count bins to the cell's two per 64-bit atomic (a cell holds
//       fewer than 2^32 bodies, so no bin carries into the next), and the cell's last tile reads them back in 16-byte
//       words: 2^20 / 64 0.328 -> 0.290 ms (count), 0.464 -> 0.421 (work). Weights pairing the same way when a cell is
//       light enough timed the same, and tiles sharing the flush as thread block clusters were slower. Work balance's
//       counting passes where the scatter looks back add a bin's count and narrow weight as one 64-bit word (count
//       above 42 bits of weight, below 2^22 bodies): 2^20 / 64 work 0.324 -> 0.318 ms.
//     - bisection (the baseline): 32 rounds, each counts the bodies at or below a trial key per cell and halves the
//       cell's bracket [key(lower), key(upper)].
//   Count balance: the pivot is the key of rank k = floor(N (f + l) / np) - begin. Work balance: weights are
//   DeviceBodies::acceleration[i].w (interactions of the body's last force evaluation), as 64-bit fixed point (w 2^e, e
//   chosen so that N weights stay below 2^62, and at most 127), whose sums are exact and independent of the order of
//   the atomics, so cuts are deterministic; the pivot is the key of the first body (in key order) whose cumulative
//   weight exceeds the cell's share of the global target W (f + l) / np. If every weight is 0, work balance falls back
//   to count balance (same cells as OrbCpu's count balance). Under radix select the root's first pass sums W: every
//   body matches there, so the root's bins add up to it, and the root's selection takes its target from them, where a
//   kernel of its own read every weight again (2^27 / 4096: 51.21 -> 50.90 ms; 2^20 / 64: 0.391 -> 0.394, the root's
//   selection being on the critical path of a latency-bound build; H200); bisection, and a build into one domain, keep
//   that kernel. When every weight is an integer below 2^20 at one scale 2^(e - s) (the extraction finds the most
//   binary digits below the point; interaction counts have none), the radix passes weigh a tile's bodies in 32 bits at
//   that scale and shift the tile's sums left by s into the cell's bins: the same sums, for a 32-bit conversion,
//   reduction and atomic per weight (2^27 / 4096: 72.3 -> 67.6 ms). Integer weights (interaction counts) are their own
//   narrow units (NarrowUnits): a pass converts each with one saturating conversion, no product and no comparison
//   (negative weights and NaN give 0; a build with invalid weights is refused anyway), and shifts the tile's sums left
//   by e instead: 2^20 / 64 work 0.3025-0.3039 -> 0.2997-0.3000 ms, 2^27 / 4096 50.29 -> 49.56 ms (H200). Work balance
//   selects by weight alone, so the passes before the last build no count histogram; the last pass counts (the bin of
//   equal keys gives the ties) and sums its tiles' bodies below the digits fixed before it, which with its bins below
//   the chosen digit is the count below the pivot (2^27 / 4096: 67.6 -> 64.7 ms, 2^20 / 64: 0.574 -> 0.561 ms).
//   Selections ending at a bin's edge: where the scatter looks back (below), a selection before the last digit ends
//   when an edge of the chosen bin is the split: no rank or target left in the bin (its first body is the pivot and
//   goes right), or under work balance a bin of one body, whose side the weight rule decides. The pivot becomes the
//   edge's key (no body left of the cut holds it), every key below it goes left, every other right, and the look-back
//   places the cut from the extreme keys and the count on the edge it finds itself (finishAtBinEdge). Under work
//   balance the passes after the first therefore count as the last does. At 2^20 bodies / 64 domains, Plummer, 45 of
//   the 63 splits (work) and 52 (count) end after two passes: 0.360 -> 0.340 ms (work), 0.2615 -> 0.2535 (count;
//   H200). Where the last pass tallies, the scatter reads its offsets, so every split takes its last pass there.
//   Ties: radix select also counts the bodies below the pivot (the bins below the chosen ones; under work balance the
//   last pass's sums and bins below) and equal to it (the last digit's bin, with its weight), which decides how many
//   ties go left (count balance: k - below; work balance: while the middle of the tie's weight lies below the remaining
//   target, in index order) whenever that needs no order: always under count balance, and under work balance with no
//   tie, one tie or no target left. Such a split is resolved, and its left child's size is known before anything moves.
//   Scatter, per tile: each body's side, ranked inside its tile by warp ballots, so left bodies keep their order, then
//   right ones: no per-body flag or prefix array. Weights move with the records, except at the last level, after which
//   nothing reads them (2^27 / 4096 work: 64.7 -> 64.3 ms); there a build of the bodies moves the index alone, which
//   is all the final gather reads (2^20 / 64: 2% less). Where the weights move, a tile stages each array in shared
//   memory in its sorted order and stores whole 128-byte lines, where a warp's row stored straight from registers
//   writes a left and a right run of partial sectors (2^27 / 4096 work 53.40 -> 52.47 ms; without weights slower,
//   so the other scatters store from registers). A resolved split's tiles find the counts and extreme keys
//   of the cell's earlier tiles by decoupled look-back (Merrill and Garland's single-pass scan, tiles numbered by a
//   ticket in launch order; each field a word with its state, OrbGpuLookBack.cuh), so the cell's last tile knows the
//   whole cell and writes the cut (the midpoint of the largest left and smallest right key, rounded once, as OrbCpu)
//   and the children as soon as its look-back ends. Unresolved splits (bisection;
//   several ties under work balance) take a count pass first: per tile the bodies below and equal to the pivot; the
//   cell's last tile scans the tile counts, decides the ties (reading only the one tile where the work rule flips) and
//   writes the cut and children; the scatter then reads its offsets. Replacing the count pass by the look-back saved 3
//   to 4% at 2^20 and 2^27 bodies (H200). Where the scatter looks back, work balance launches the count pass only when
//   the last build's ties needed it (grids of bodies, bodies at one point): a build without it that meets such ties
//   guesses them (every tie right), is void (the final gather leaves the bodies untouched) and runs again with it,
//   where the idle pass cost a kernel boundary per level in every build (2^20 / 64 work: 0.391 -> 0.374 ms).
//   Offsets from the last pass (OrbTileOffsets): when the levels hold more tiles than the scatter holds at once (2 per
//   multiprocessor), a scatter tile's look-back waits for tiles of an earlier wave, so the last radix pass counts the
//   tiles instead, on its way: each tile tallies its bodies below the pivot's digits fixed before that pass, the
//   largest such key and the smallest key above them, and keeps the final digits of the few bodies that match them
//   (at most kOrbTileMatchSlots per tile), with their places in the tile. Once the final digit is picked, the
//   selecting block counts each tile below and equal to the pivot from those, scans them into the scatter's offsets
//   and places the cut, and the scatter of that cell only reads its offsets. A tile with more matches than slots
//   (many bodies on the pivot's plane) leaves its cell to the look-back (or the count pass). 2^27 bodies / 4096
//   domains: 51.1 -> 47.9 ms (count) and 75.8 -> 73.6 ms (work); at 2^20 / 64, whose levels fit one wave, the tally
//   cost what it saved (count) or 5% more (work). Work balance's splits with several ties and a target left are
//   decided there too where the selection runs after the pass (below): the ties' weights are read at their places,
//   and only the tile where the weight rule flips is read whole, so no count pass reads their tiles (2^27 / 4096
//   work 52.89 -> 52.62 ms).
//   Selection after the pass: in that regime (the tally's) each pass's tiles of a cell of several tiles add their
//   bins and end, and a kernel of its own, one block per split, then selects for the cell as its last tile did before:
//   the kernel boundary orders every tile's bins before them, so no tile fences and counts itself in (ncu showed the
//   same wait in the scatter, below). 2^27 / 4096: 43.37 -> 42.13 ms (count), 55.2 -> 53.8 (work); 2^24 / 1024 2.5%
//   and 2.7% less (H200). At 2^20 / 64 the levels fit one wave and a kernel boundary costs about 3 us, so the last
//   tile still selects there.
//   Children's first pass in the scatter: each scatter tile (an instance of its own) also adds every body it moves to
//   the first-digit histogram of the child it goes to (its count, or its narrow weight), flushes it to the child's bins
//   (slot: its entry among the next level's splits), and the cell's first tile marks the child (OrbSplit::preselected,
//   cleared by the layout of the level above, so that no build finds the marks of the last). The digits are measured in
//   a frame of keys taken from the pivot, which is known before the scatter even where the cell's last scatter tile
//   places the cut (look-back): along the cut axis the left bodies' keys lie in [key(lower), pivot] and the right ones'
//   in [pivot, key(upper)], along the other axes in the parent's range; the child's axis is the longest side of its box
//   with the cut at the pivot. The children's layout, a kernel after the scatter with one block per split of the next
//   level, then lays that level out (each block its split's tiles and bin slot, summed from the cells before it, and
//   its preparation, so that no one-block layout kernel runs below the root: 2^27 / 4096 0.03 to 0.04 ms less, 2^20 /
//   64 the same, H200), keeps the frame of each marked child (unless the real cut made another side the longest: then
//   the child takes its own first pass) and selects its digit; the level's first pass skips it. Only children that the
//   next level splits, whose frame needs all three passes and whose weights are counted or narrow; the others take
//   their own first pass. First built where the last pass tallies, from the children's boxes: 2^27 / 4096: 45.96 ->
//   45.41 ms (count), 59.7 -> 56.85 (work); 2^20 / 64, which did not use it then, measured 0.285 -> 0.289 ms (count)
//   and 0.414 -> 0.425 (work) against the code before, whose kernels there differ by at most 30 PTX instructions each;
//   the cause was not found. Frames from the pivot let the look-back scatter take it too (one pass fewer per level at
//   2^20 / 64): 0.289 -> 0.274 ms (count), 0.409 -> 0.393 (work); 2^27 and 2^24 within 0.5% (H200).
//   The digits were first selected by the parent's last scatter tile, which every tile had to fence and count itself
//   in to find: the selecting kernel's boundary orders the bins instead (ncu at 2^27 / 4096 work: 11% of the scatter's
//   stall samples were warps waiting behind that fence). 2^27 / 4096: 45.40 -> 44.02 to 44.10 ms (count), 56.50 ->
//   55.69 to 55.72 (work); 2^24 / 1024 3% and 2% less (H200).
//   Chunked walks: most splits skip the count pass (it serves only unresolved splits) and, below the root, their first
//   radix pass (the scatter above took it). Where the scatter looks back, a level launches neither unless the last
//   build needed it (launchesCountPass, guessesFirstPasses): a build that then needs one is void and runs again with it
//   (a third time if that run needs the other: runChecked). Launched a block per tile, such a kernel spent itself
//   dispatching blocks that only found their split done: about 65 us per kernel at 2^27 bodies (33,000 tiles). Both now
//   run at most one wave of blocks (as many as the device holds at once), each walking a contiguous chunk of the
//   level's tiles and stepping over a skipping split's tiles at once (forEachTileOfChunk); where a level's tiles fit
//   one wave (2^20), each block still walks one tile. 2^27 / 4096: 43.16 -> 42.64 ms (count), 52.89 -> 51.58 (work);
//   2^24 / 1024 0.8% and 2% less (H200). The first pass walks chunks only where the scatter is expected to have taken
//   it: under count balance, or when the last build's weights were narrow (chunkedFirstPasses). With wide weights every
//   child takes its own first pass, which in chunks (fewer blocks of up to 128 registers) took longer: 60.3 -> 64.7 ms
//   at 2^27.
//   Ties go left in index order, so under count balance the cells and each leaf's bodies equal OrbCpu's exactly, also
//   with many bodies on a cut plane.
//   Work balance is not bit-identical to OrbCpu (fixed point), but keeps its guarantee: every domain boundary is
//   within half the largest body weight of its target, so every leaf weight is within one largest weight of W / np.
//   No host wait inside the build: the non-finite and weight checks are read after all work is enqueued; when they
//   fail the final gather and copy are skipped on the device and the buffers keep their owners, so the bodies are
//   left untouched, and build() throws.
//   Memory beyond the bodies' 48 bytes: 32 bytes per body (the two record buffers; +8 under work balance, +4 for the
//   load order's second buffer in a build of the bodies), 96 bytes per tile (64 of them the last pass's match slots)
//   and 32 per tile and level (look-back), 8 KiB (24 KiB under work balance) of radix bins per cell of more than one
//   tile of the widest level and per cell of the widest level below the root (the scatters' children), O(np) cells.
//   Cached graphs: the launch sequence (about 40 kernels and memsets at 2^20 bodies / 64 domains, each latency-bound
//   there) depends only on N, np, the balance, the finder and the buffers, so it is captured into a CUDA graph (on a
//   private stream) and replayed while that key recurs; the gather's rotation cycles through a few buffer sets, so
//   the last few graphs are kept. The layout upload happens before, the input check's download and wait after the
//   graph.
//   The words the levels need at 0 (radix bins, look-back words) are cleared by the extraction's threads, not by
//   memset nodes, which take no programmatic edge and stood on the critical path (2^20 / 64: 0.316 -> 0.310 ms work,
//   0.249 -> 0.244 count, H200).
//   Dependent launches: each kernel after the extraction is a programmatic dependent launch (DependentLaunch.cuh,
//   Hopper and later): its blocks become resident while the kernel before finishes (a cell's last tile selecting its
//   digit, say), and a radix pass after the first, or the scatter, already finds its tile and loads its bodies, which
//   the level's layout and the previous level wrote, before it waits; the count pass waits first, since it reads
//   bodies only for the rare unresolved splits. 1M bodies / 64 domains: 0.390 -> 0.364 ms (count balance, H200). At
//   2^27 bodies the builds take 1% longer, with dependent launches or ordinary ones alike: the cost is in the
//   kernels' new order of work, not in the launches.
//   Scatter beside the last pass: where no count pass follows the last radix pass, the tiles of a resolved split whose
//   pivot an earlier kernel found (OrbSplit::done is kOrbPivotFound: the layout, or a selection that ended at a bin's
//   edge, 45 of 63 splits under work balance at 2^20 / 64) move without waiting for that pass, which only the other
//   splits need (it marks the pivots it finds kOrbPivotFoundByLastPass, so a tile that reads its split before the wait
//   tells the two apart); those tiles wait once they have moved, so that every block waits and the scatter's end still
//   orders the pass before the next kernel. The children's first-digit bins lie past the bin slots of the level's own
//   passes (OrbLevel::childBinSlot), since the scatter now fills them while the last pass may still take its cells'
//   bins. 2^20 / 64 (H200, two leases): work 0.3078-0.3092 -> 0.3029-0.3056 ms, count 0.2414-0.2430 -> 0.2400-0.2424;
//   2^27 / 4096 unchanged (the tally regime takes every last pass). Waiting for each split's own selection instead
//   (the pass publishing its pivots with release order, a tile polling its split) measured the same for work and 1 to
//   2 us slower for count, so every other tile still waits for the pass to end.
//   Instruction diet: at 2^27 bodies the radix passes are issue-bound (ncu: 120 warp instructions per 32 bodies in a
//   cell's first pass, 51 in the later ones where few bodies match, IPC about 3), so each tile kernel is compiled once
//   per balance and the count-balance instance holds no weight arithmetic (the compiler predicated it, 16% of a later
//   pass's instructions); a tile indexes its bodies in 32 bits through per-array base pointers (constant offsets per
//   unrolled row); a tile finds its split by a 32-way warp search (three dependent loads at 2048 splits, not eleven);
//   and the work histogram keeps each 64-bit bin as two 32-bit words, since a 64-bit shared atomicAdd compiles to a
//   compare-and-swap loop. Together: 2^27 / 4096 60.8 -> 51.1 ms (count) and 88.5 -> 75.8 ms (work) on the H200.
//   Later, for the work instance: fixed-point weights by a product with 2^exponent (not scalbnf) and 64-bit warp sums
//   as three 32-bit reductions (sm_80 and later): 73.5 -> 71.8 ms at 2^27 / 4096, 0.605 -> 0.594 ms at 2^20 / 64.
//   Code size: the work instance keeps its rare weight paths (every weight 0; weights that are not narrow integers)
//   out of line, where they load the rows again. With all three paths inlined, each with its 16 unrolled rows, its code
//   was 137 to 260 KB, and at 2^20 bodies, where a multiprocessor runs a tile or two per pass and so meets most of it
//   once, 55% of the work passes' stall samples waited for instructions (ncu): 2^20 / 64 work 0.560 -> 0.498 ms.
//   Likewise the last pass's instances leave out the run-time test for pass 0, which cost a second copy of the row
//   loop: 2^27 / 4096 count 48.7 -> 47.6 ms, work 63.1 -> 62.2.
//   Tiles of 4096 bodies measured faster than 2048 at 2^27 and 2^30 bodies (fewer same-address atomics per cell, which
//   serialise in L2) and equal at 2^20. Cost (ncu, 2^24 bodies / 4096 domains, 8-bit digits): radix passes 41%,
//   issue-bound (SM throughput 62-72%, DRAM 19-36%, 50% occupancy at 64 registers), hence fewer, wider passes;
//   scatter 26% (DRAM 61%, near the copy rate); final gather 16% (0.6 ms per float4 array); count 12% (latency-bound,
//   88 registers, 25% occupancy; capping it at 64 helped 2^27 by 3% but cost 1% at 2^20).
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "orb/cuda/OrbGpuGraph.hpp"
#include "orb/cuda/OrbGpuKernels.hpp"

#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace gravlab {

class OrbGpu {
public:
    /// chunkedBlocks: at most this many blocks for the kernels that walk chunks of tiles (forEachTileOfChunk), 0 for
    /// as many as the device holds at once; tests make small builds walk chunks of several tiles with it.
    explicit OrbGpu(OrbCutFinder cutFinder = OrbCutFinder::RadixSelect,
                    OrbTileOffsets tileOffsets = OrbTileOffsets::Automatic, std::uint32_t chunkedBlocks = 0)
        : m_cutFinder(cutFinder), m_offsetSource(tileOffsets), m_chunkedBlocks(chunkedBlocks) {}

    /// Device bytes per body the build needs beyond the bodies themselves (the two record buffers).
    static constexpr std::uint64_t kScratchBytesPerBody = 32;
    /// Extra device bytes per body under work balance (the weights in both record buffers).
    static constexpr std::uint64_t kWorkScratchBytesPerBody = 8;
    /// Extra device bytes per body of build() (not buildPositions()): the load order's second buffer.
    static constexpr std::uint64_t kLoadOrderBytesPerBody = 4;
    /// Device bytes per body that build() needs beyond the bodies themselves.
    static constexpr std::uint64_t buildBytesPerBody(bool workBalance) {
        return kScratchBytesPerBody + kLoadOrderBytesPerBody + (workBalance ? kWorkScratchBytesPerBody : 0);
    }

    /// Splits the device bodies into domainCount domains, permuting positionMass, velocityColor and acceleration (and
    /// their low parts in double precision) in place. Work balance weighs body i by acceleration[i].w (finite, >= 0;
    /// all zero falls back to count balance). Enqueued on stream, then waits once at the end to read the input checks.
    /// Throws InvalidParameterError (field "orb-domains") when domainCount lies outside [1, N]; std::invalid_argument
    /// when N is 0 or above 2^32 - 1, a position is not finite, or (work balance) a weight is negative or not finite.
    /// On a throw the bodies are left untouched.
    void build(DeviceBodies& bodies, std::uint32_t domainCount, OrbBalance balance, cudaStream_t stream);
    /// Count balance.
    void build(DeviceBodies& bodies, std::uint32_t domainCount, cudaStream_t stream) {
        build(bodies, domainCount, OrbBalance::Count, stream);
    }
    /// Count-balanced build over positions alone (three device arrays of count floats, permuted in place): for body
    /// counts whose full state does not fit on the device. deviceOrder() maps the result to the input order. Same
    /// errors as build().
    void buildPositions(float* x, float* y, float* z, std::size_t count, std::uint32_t domainCount,
                        cudaStream_t stream);

    /// The cells, breadth first as in OrbCpu; waits for the build.
    std::vector<OrbCell> downloadCells(cudaStream_t stream) const;
    /// levelBegin()[d] is the index of the first cell of depth d; the last entry is the number of cells.
    const std::vector<std::size_t>& levelBegin() const { return m_levelBegin; }
    /// The device cell array (cellCount() cells, breadth first); migration may rewrite the leaves' begin and end.
    const OrbCell* deviceCells() const { return m_cells.data(); }
    OrbCell* deviceCells() { return m_cells.data(); }
    std::size_t cellCount() const { return m_cells.size(); }
    /// After a build: for each body position, the index the body had before the build (valid until the next build).
    const std::uint32_t* deviceOrder() const { return m_finalOrder; }
    /// Device time of the last build in milliseconds (CUDA events around its kernels); waits for it.
    double lastBuildMilliseconds() const;

    /// Loads of the domains as the device cell array now has them: memory = largest leaf body count / mean; work =
    /// largest leaf weight sum / mean, weights from acceleration.w under Work, 1 per body under Count (work equals
    /// memory then, as in OrbCpu). Waits for the result. Throws std::invalid_argument when the weights sum to 0.
    OrbImbalance imbalance(const DeviceBodies& bodies, OrbBalance balance, cudaStream_t stream) const;
    /// Memory imbalance only (work = memory), e.g. after buildPositions.
    OrbImbalance imbalance(cudaStream_t stream) const;
    /// What the last build() balanced, per domain: its body count, and its weight as the build summed it (exact:
    /// the fixed-point sums, scaled back), which is the count too when work balance was not asked for or fell back;
    /// with the cells they were read from (downloadCells()).
    struct DomainLoads {
        bool weighted = false; ///< work balance was in force
        std::vector<double> bodies, weights;
        std::vector<OrbCell> cells;
    };
    /// O(domains): reads the cells and their weight prefixes, not the bodies. Waits for the build.
    DomainLoads domainLoads(cudaStream_t stream) const;
    /// Whether the last build balanced work with the radix passes' 32-bit weights: radix select, and every weight an
    /// integer below 2^20 at one common scale (kOrbNarrowWeightBits), as interaction counts are. The cuts are the same
    /// either way (bisection always sums in 64 bits).
    bool lastBuildSummedNarrowWeights() const {
        return m_cutFinder == OrbCutFinder::RadixSelect && m_lastBuildWeighted && m_lastState.narrowShift >= 0;
    }
    /// Whether the last build ran again: launched without the count pass (launchesCountPass) or the first passes below
    /// the root (guessesFirstPasses), it met ties that needed their weights in index order or a split that took its
    /// own first pass, so it left the bodies untouched and was built again with the kernels it had left out (a third
    /// time where the second run met the other).
    bool lastBuildRanAgain() const { return m_lastBuildRanAgain; }

    /// Bytes the build reads and writes per body in the model used to quote an effective bandwidth: extraction,
    /// per level 3 radix passes (32 bisection rounds and the 4-byte count pass) of 4-byte keys and the 32-byte
    /// scatter, then the gather of three float4 arrays and the load order (or the positions' copy back); weights add
    /// their own bytes. scatteredFirstPasses levels take their first pass in the scatter before them, which reads
    /// nothing more.
    static double modelledBytesPerBody(std::size_t splitLevels, OrbCutFinder finder, OrbBalance balance,
                                       bool positionsOnly, std::size_t scatteredFirstPasses);
    /// Levels of the current layout whose cells' first radix pass rides along the scatter of the level above (every
    /// level below the root under radix select; a child whose weights are not narrow, whose key range spans two digits
    /// or fewer, or whose cut axis the scatter mispredicted, still takes its own).
    std::size_t scatteredFirstPasses() const;

private:
    void layOutCells(std::uint32_t bodyCount, std::uint32_t domainCount);
    void reserve(std::size_t bodyCount, bool weights);
    OrbRecords records(int side, std::size_t bodyCount);
    /// What the extraction clears for the levels (bins, look-back words, the first cell's weight before it).
    OrbScratchToClear scratchToClear();
    /// The records the extraction writes (side 0). Where the root splits, without the index: the root's scatter takes
    /// a body's place as its index, which saves 8 bytes per body (2^27 bodies: 1 GB) of writing and reading iota
    /// (2^27 / 4096 work 51.60 -> 51.25 ms, 2^20 / 64 count 0.2736 -> 0.2715, H200).
    OrbRecords rootRecords(std::size_t bodyCount, std::uint32_t domainCount);
    /// Enqueues the levels on the extracted records; returns the side holding the final records, whose coordinates
    /// are kept only when keepFinalCoordinates (else only their index is final).
    int partitionLevels(std::uint32_t bodyCount, std::uint32_t domainCount, bool workBalance, bool keepFinalCoordinates,
                        cudaStream_t stream);
    /// Reads the build's state: throws on invalid input; false when the build is void (a guess of its launch sequence
    /// failed, OrbBuildState::guessFailed), true when it stands. The expectations for the next run follow the state,
    /// but a rerun (after a void run of the same build) only adds to them: the void run's cells below the split whose
    /// guess failed are not the build's, so what it met there the rerun may not meet before its own guess fails.
    bool checkState(cudaStream_t stream, bool workBalance, bool rerun);

    /// Everything the captured launch sequence depends on; a new key captures it again.
    struct GraphKey {
        bool positionsOnly = false, workBalance = false, chunkedFirstPasses = false, countPass = false,
             guessesFirstPasses = false;
        std::uint32_t bodyCount = 0, domainCount = 0;
        std::array<const void*, 24> buffers{};
        std::array<std::size_t, 24> sizes{};
        bool operator==(const GraphKey&) const = default;
    };
    GraphKey graphKey(bool positionsOnly, bool workBalance, std::uint32_t bodyCount, std::uint32_t domainCount,
                      std::array<const void*, 7> arrays) const;
    /// Replays the graph captured for key, capturing enqueue first when no cached graph has that key; records the
    /// build's stop event after the replay, and its start event before it unless `again` (a void build's second run,
    /// whose time then counts from the first).
    void launchSequence(const GraphKey& key, const std::function<void(cudaStream_t)>& enqueue, cudaStream_t stream,
                        bool again = false);
    /// launchSequence and checkState; while the build is void, again with the launch sequence its state then asks for
    /// (key() is called again): at most three runs.
    void runChecked(const std::function<GraphKey()>& key, const std::function<void(cudaStream_t)>& enqueue,
                    cudaStream_t stream, bool workBalance);
    /// Graphs kept: the gather's buffer rotation cycles the body arrays through 4 sets of buffers (7 in double
    /// precision) and the load order through 2, so builds take 4 (14) graphs in turn.
    static constexpr std::size_t kCachedGraphs = 14;
    /// Words of m_lookBack per level: the ticket, then the look-back words of every tile a level may have.
    std::size_t lookBackStride() const { return 1 + m_tileCounts.size() * kOrbLookBackWordsPerTile; }
    /// The record buffer that holds the final records: one swap per level that splits.
    int finalSide() const { return int((m_levelSplitBegin.size() - 1) % 2); }

    /// Radix select over bodyCount bodies: whether each level's last pass counts the tiles for the scatter.
    bool tallyLastPass(std::uint32_t bodyCount) const;
    /// Whether the levels below the root launch their first radix pass in chunks of tiles (forEachTileOfChunk), as
    /// pays where the scatter above took most splits' first pass: under radix select with counts, or with weights
    /// expected narrow. Wide weights' children take their own first pass, which in chunks, with fewer blocks of more
    /// registers, took longer (2^27 / 4096, wide weights: 60.3 -> 64.7 ms, H200).
    bool chunkedFirstPasses(bool workBalance) const {
        return m_cutFinder == OrbCutFinder::RadixSelect && (!workBalance || m_expectNarrowWeights);
    }
    /// Whether the levels launch the count pass, which only splits left unresolved by their selection need: every
    /// split under bisection; under radix select none under count balance, and under work balance the splits whose
    /// several ties need their weights in index order (grids of bodies, bodies at one point), and the splits whose
    /// tiles overflowed their match slots where the last pass tallies. Without that tally, work balance launches it
    /// only when the last build's ties needed it (OrbLevel::guessesTies says what a build without it does with such
    /// ties); the pass costs a kernel boundary per level though it finds nothing to do (H200, 2^20 bodies / 64
    /// domains, work balance: 0.391 -> 0.374 ms).
    bool launchesCountPass(bool workBalance, std::uint32_t bodyCount) const {
        if (m_cutFinder != OrbCutFinder::RadixSelect)
            return true;
        return workBalance && (tallyLastPass(bodyCount) || m_expectTiesToOrder);
    }
    /// Whether the levels below the root launch no first radix pass (OrbLevel::guessesFirstPasses): where the scatters
    /// take the children's first passes (chunkedFirstPasses) and the last build's children needed none of their own,
    /// whose kernel then only costs a boundary per level (H200, 2^20 bodies / 64 domains: 0.273 -> 0.263 ms count,
    /// 0.373 -> 0.360 work), but not where the last pass tallies: there a boundary costs little and a void build much.
    bool guessesFirstPasses(bool workBalance, std::uint32_t bodyCount) const {
        return chunkedFirstPasses(workBalance) && !tallyLastPass(bodyCount) && !m_expectOwnFirstPasses;
    }
    /// Whether the root's first radix pass sums the weights (OrbLevel::rootPassSumsWeights): work balance under radix
    /// select, where the root splits.
    static bool rootPassSumsWeights(bool workBalance, OrbCutFinder finder, bool rootSplits) {
        return workBalance && finder == OrbCutFinder::RadixSelect && rootSplits;
    }
    bool rootPassSumsWeights(bool workBalance) const {
        return rootPassSumsWeights(workBalance, m_cutFinder, m_levelSplitBegin.size() > 1);
    }

    OrbCutFinder m_cutFinder;
    OrbTileOffsets m_offsetSource;
    std::uint32_t m_chunkedBlocks;
    std::vector<OrbCell> m_hostCells;             ///< the tree's shape; ranges and boxes are filled on the device
    std::vector<OrbSplit> m_hostSplits;           ///< per level: the cells to split and the leaves to copy
    std::vector<std::uint32_t> m_levelSplitBegin; ///< first entry of each level that splits
    std::vector<std::size_t> m_levelBegin;
    std::uint32_t m_layoutBodies = 0, m_layoutDomains = 0;
    std::uint32_t m_widestMultiTileLevel = 0; ///< most cells of more than one tile on one level (bin slots)
    std::uint32_t m_widestChildLevel = 0;     ///< most entries of a splitting level below the root (bin slots)
    DeviceBuffer<OrbCell> m_cells;
    DeviceBuffer<OrbSplit> m_splits;
    DeviceBuffer<std::uint64_t> m_cellWeightBefore;
    DeviceBuffer<OrbBuildState> m_state;
    DeviceBuffer<float4> m_recordBuffers[2]; ///< x, y, z, index as four float arrays each; gather scratch
    DeviceBuffer<float> m_weightBuffers[2];
    DeviceBuffer<uint2> m_tileCounts, m_tileOffsets, m_tileExtremes;
    DeviceBuffer<std::uint64_t> m_lookBack; ///< per level: the scatter's tile ticket, then the tiles' look-back words
    DeviceBuffer<std::uint64_t> m_tileEqualWeight;
    DeviceBuffer<std::uint32_t> m_tileMatches; ///< per tile: the last radix pass's matches (final digit, place)
    DeviceBuffer<std::uint32_t> m_binCounts;
    DeviceBuffer<std::uint64_t> m_binWeights;
    DeviceBuffer<std::uint32_t> m_loadOrderScratch; ///< build(): the load order gathered, then bodies.loadOrder
    mutable DeviceBuffer<double> m_leafLoads;
    OrbBuildState m_lastState{};      ///< the last build's checks, total weight and fixed-point exponent
    bool m_lastBuildWeighted = false; ///< the last build balanced work (asked for, and some weight was positive)
    /// Work balance: the last build's weights were narrow or all 0, so the next one's scatters are expected to take
    /// the children's first pass (chunkedFirstPasses). Only speed depends on the guess.
    bool m_expectNarrowWeights = true;
    /// Work balance: the last build's ties needed their weights in index order, so the next one launches the count
    /// pass (launchesCountPass). Speed depends on the guess; a wrong one costs a void build.
    bool m_expectTiesToOrder = false;
    /// The last build had a split below the root that took its own first radix pass, so the next one launches those
    /// passes (guessesFirstPasses). Speed depends on the guess; a wrong one costs a void build.
    bool m_expectOwnFirstPasses = false;
    bool m_lastBuildRanAgain = false;
    const std::uint32_t* m_finalOrder = nullptr;
    CudaEvent m_buildStart, m_buildStop;
    std::optional<CudaStream> m_captureStream;
    std::vector<std::pair<GraphKey, CudaGraph>> m_graphs; ///< most recently used first
};

} // namespace gravlab
