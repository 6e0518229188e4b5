// The partition of one ORB level on the GPU: every tile moves its records to their place in the other buffer,
// stably, with offsets from the cut finder's tally, from the count pass (OrbGpuCountPass.cu), or from its own
// look-back, after which the cell's last tile places the cut and writes the children; and the kernel after it that
// selects the children's first digits. The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DependentLaunch.cuh"
#include "orb/cuda/OrbGpuDevice.cuh"
#include "orb/cuda/OrbGpuLookBack.cuh"
#include "orb/cuda/OrbGpuRadix.cuh"
#include "orb/cuda/OrbGpuTileScan.cuh"

namespace gravlab {
namespace {

using namespace orbdevice;

/// What the scatter moves: whole records (weights too under work balance while a later level reads them), or, at the
/// last level of a build of the bodies, the index alone, since the final gather reads nothing else (2^20 bodies, the
/// sixth level's 16 of 16 bytes written become 4, and 16 read become 8).
enum class ScatterMoves { Records, RecordsAndWeights, IndexOnly };

/// One tile's records in registers, a row of 32 consecutive bodies per warp and step: all loaded before any is stored,
/// since the buffers could alias as far as the compiler knows, and interleaving would serialise every load. Only the
/// coordinate along the cut axis when the scatter moves the index alone.
template <ScatterMoves kMoves> struct TileRecords {
    static constexpr bool kWeights = kMoves == ScatterMoves::RecordsAndWeights;
    static constexpr int kAxes = kMoves == ScatterMoves::IndexOnly ? 1 : 3;
    float coordinates[kAxes][kRowsPerWarp], weights[kWeights ? kRowsPerWarp : 1];
    std::uint32_t indices[kRowsPerWarp];

    __device__ __forceinline__ void load(const Tile& tile, const OrbRecords& from, int cutAxis) {
        const float* tileCoordinates[3] = {from.coordinate[0] + tile.first, from.coordinate[1] + tile.first,
                                           from.coordinate[2] + tile.first};
        if constexpr (kAxes == 1)
            tileCoordinates[0] = from.coordinate[cutAxis] + tile.first;
        for (int row = 0; row < kRowsPerWarp; ++row) {
            const std::uint32_t offset = tile.offset(row);
            const bool valid = tile.holds(row);
            for (int axis = 0; axis < kAxes; ++axis)
                coordinates[axis][row] = valid ? tileCoordinates[axis][offset] : 0.0f;
            if constexpr (kWeights)
                weights[row] = valid ? from.weight[tile.first + offset] : 0.0f;
        }
        // The root's records hold no index: a body's index is its place there.
        const std::uint32_t* tileIndices = from.index == nullptr ? nullptr : from.index + tile.first;
        for (int row = 0; row < kRowsPerWarp; ++row) {
            const bool valid = tile.holds(row);
            indices[row] = !valid ? 0u : tileIndices == nullptr ? tile.body(row) : tileIndices[tile.offset(row)];
        }
    }
    /// The coordinate of row's body along the cut axis.
    __device__ __forceinline__ float along(int cutAxis, int row) const {
        if constexpr (kAxes == 1)
            return coordinates[0][row];
        else
            return cutAxis == 0 ? coordinates[0][row] : cutAxis == 1 ? coordinates[1][row] : coordinates[2][row];
    }
    __device__ __forceinline__ void store(int row, std::uint32_t destination, const OrbRecords& to) const {
        if constexpr (kAxes == 3)
            for (int axis = 0; axis < 3; ++axis)
                to.coordinate[axis][destination] = coordinates[axis][row];
        to.index[destination] = indices[row];
        if constexpr (kWeights)
            to.weight[destination] = weights[row];
    }
    /// Every row to the same place in `to` (a leaf that is only copied).
    __device__ __forceinline__ void copy(const Tile& tile, const OrbRecords& to) const {
        for (int row = 0; row < kRowsPerWarp; ++row)
            if (tile.holds(row))
                store(row, tile.body(row), to);
    }
    /// Block-wide: every array to its place in `to`, one array at a time through move's staging buffer.
    template <typename Move> __device__ __forceinline__ void moveArrays(const Move& move, const OrbRecords& to) const {
        if constexpr (kAxes == 3)
            for (int axis = 0; axis < 3; ++axis)
                move.array(coordinates[axis], to.coordinate[axis]);
        move.array(indices, to.index);
        if constexpr (kWeights)
            move.array(weights, to.weight);
    }
};

/// This thread's view of its tile against the pivot: per row, the warp's bodies below and equal to it (ballots), and
/// this thread's largest key below it and smallest above it.
struct PivotRows {
    unsigned lessMask[kRowsPerWarp], equalMask[kRowsPerWarp];
    std::uint32_t less = 0, equal = 0, maxLess = 0, minGreater = ~0u;

    template <ScatterMoves kMoves>
    __device__ __forceinline__ PivotRows(const Tile& tile, const TileRecords<kMoves>& records, int axis,
                                         std::uint32_t pivot) {
        for (int row = 0; row < kRowsPerWarp; ++row) {
            const bool valid = tile.holds(row);
            const std::uint32_t key = orderedKey(records.along(axis, row));
            lessMask[row] = __ballot_sync(kFullWarp, valid && key < pivot);
            equalMask[row] = __ballot_sync(kFullWarp, valid && key == pivot);
            less += __popc(lessMask[row]);
            equal += __popc(equalMask[row]);
            if (valid && key < pivot)
                maxLess = max(maxLess, key);
            if (valid && key > pivot)
                minGreater = min(minGreater, key);
        }
    }
};

/// The per-warp sums a tile of the scatter shares in shared memory.
struct WarpTallies {
    std::uint32_t less[kWarpsPerTile], equal[kWarpsPerTile], maxLess[kWarpsPerTile], minGreater[kWarpsPerTile];

    /// Block-wide: each warp's counts of rows (and, for the look-back, its extreme keys, which the warp reduces first).
    __device__ __forceinline__ void share(PivotRows& rows, bool extremes) {
        if (extremes) {
            rows.maxLess = warpMax(rows.maxLess);
            rows.minGreater = warpMin(rows.minGreater);
        }
        const int warp = int(threadIdx.x / 32);
        if ((threadIdx.x & 31) == 0) {
            less[warp] = rows.less;
            equal[warp] = rows.equal;
            maxLess[warp] = rows.maxLess;
            minGreater[warp] = rows.minGreater;
        }
        __syncthreads();
    }
    /// start plus the (below, equal) counts of the tile's first `warps` warps.
    __device__ __forceinline__ uint2 add(int warps, uint2 start) const {
        for (int w = 0; w < warps; ++w) {
            start.x += less[w];
            start.y += equal[w];
        }
        return start;
    }
};

/// A tile's bodies on their way to the other buffer: each row's position in the tile once sorted stably into its left
/// bodies, then its right ones, and where those two runs start there. A warp's row of 32 consecutive bodies holds both
/// sides, so stored from registers it writes two partial runs of sectors (ncu, 2^27 bodies / 4096 domains: 121M write
/// sectors against 84M). Staged in shared memory in that order (array()), each warp stores whole 128-byte lines but at
/// a run's two ends, for two barriers and a shared store and load per word. That pays where the records carry their
/// weights (five arrays; H200, 2^27 / 4096 work 53.40 -> 52.47 ms, 2^20 / 64 work 0.419 -> 0.413) and not without
/// them (count 41.95 -> 42.26 ms; 2^20 unchanged), so only the scatter that moves the weights stages. Two buffers used
/// in turn (one barrier per array, dynamic shared memory) measured 52.9 ms.
struct TileMove {
    std::uint32_t position[kRowsPerWarp]; ///< this thread's rows; left bodies first, in order, then right ones
    std::uint32_t leftCount, rightCount;  ///< the tile's bodies that go left and right
    std::uint32_t leftBase, rightBase;    ///< the first destinations of its left and right bodies
    Tile tile;
    std::uint32_t* staging; ///< kOrbTileBodies words of shared memory

    TileMove() = default;
    /// A tile of split (tiesLeft of its ties go left, its right child begins at splitBody), with the (below, equal)
    /// counts of the cell's tiles before it, the cell's bodies that go left before it, and its warps' counts.
    __device__ __forceinline__ TileMove(const OrbSplit& split, const Tile& tile, uint2 tileBefore,
                                        std::uint32_t leftBefore, const WarpTallies& tallies, std::uint32_t tiesLeft,
                                        std::uint32_t splitBody, std::uint32_t* staging) {
        const uint2 tileCounts = tallies.add(kWarpsPerTile, make_uint2(0, 0));
        leftCount = tileBefore.x + tileCounts.x + min(tileBefore.y + tileCounts.y, tiesLeft) - leftBefore;
        rightCount = tile.count - leftCount;
        leftBase = split.begin + leftBefore;
        rightBase = splitBody + (tile.first - split.begin) - leftBefore;
        this->tile = tile;
        this->staging = staging;
    }

    /// Block-wide: one array of this thread's rows (floats or indices) to `destination` through the staging buffer.
    template <typename T> __device__ __forceinline__ void array(const T (&values)[kRowsPerWarp], T* destination) const {
        static_assert(sizeof(T) == sizeof(std::uint32_t));
        __syncthreads(); // the staging buffer's previous array is out
        for (int row = 0; row < kRowsPerWarp; ++row)
            if (tile.holds(row))
                staging[position[row]] = bitsOf(values[row]);
        __syncthreads();
        storeRun(destination, leftBase, 0, leftCount);
        storeRun(destination, rightBase, leftCount, rightCount);
    }

private:
    __device__ __forceinline__ static std::uint32_t bitsOf(float value) { return __float_as_uint(value); }
    __device__ __forceinline__ static std::uint32_t bitsOf(std::uint32_t value) { return value; }
    __device__ __forceinline__ static void setBits(float& to, std::uint32_t bits) { to = __uint_as_float(bits); }
    __device__ __forceinline__ static void setBits(std::uint32_t& to, std::uint32_t bits) { to = bits; }

    /// The run of `count` staged words from `first` on to destination[base...], each warp storing one 128-byte line.
    template <typename T>
    __device__ __forceinline__ void storeRun(T* destination, std::uint32_t base, std::uint32_t first,
                                             std::uint32_t count) const {
        T* run = destination + base;
        const std::uint32_t lead = std::uint32_t(reinterpret_cast<std::uintptr_t>(run) / sizeof(T)) & 31u;
        for (std::uint32_t k = threadIdx.x; k < count + lead; k += kOrbTileThreads)
            if (k >= lead)
                setBits(run[k - lead], staging[first + k - lead]);
    }
};

/// Block-wide: the (below, equal) counts of the cell's tiles before this one, by look-back for a resolved split, else
/// from the count pass. The cell's last tile of a resolved split then also knows the whole cell's counts and extreme
/// keys and places the cut (thread 0), before its bodies move.
__device__ __forceinline__ uint2 countsBeforeTile(const OrbLevel& level, OrbSplit& split, std::uint32_t tileIndex,
                                                  bool resolved, const WarpTallies& tallies) {
    __shared__ uint2 tileBefore;
    if (resolved) {
        if (threadIdx.x < 32) {
            TileSummary aggregate;
            for (int w = 0; w < kWarpsPerTile; ++w)
                aggregate.add({tallies.less[w], tallies.equal[w], tallies.maxLess[w], tallies.minGreater[w]});
            TileSummary cell = lookBack(level, split, tileIndex, aggregate);
            if (threadIdx.x == 0) {
                tileBefore = make_uint2(cell.less, cell.equal);
                cell.add(aggregate);
                if (tileIndex + 1 == split.tileBegin + split.tileCount)
                    placeCut(level, split, split.lessCount, cell.equal, split.tiesLeft, cell.maxLess, cell.minGreater,
                             split.leftTieWeight);
            }
        }
    } else if (threadIdx.x == 0) {
        tileBefore = level.tileOffsets[tileIndex];
    }
    __syncthreads();
    return tileBefore;
}

/// The first radix digit of a child cell, which the scatter of its parent takes for the next level (the children's
/// first pass): the digit of a body's key along the child's cut axis, in a frame of keys that holds every body the
/// child gets, in the child's bins (bin slot: OrbLevel::childBins of its entry among the next level's splits).
/// The frame comes from the pivot, known before the scatter also where its cell's last tile places the cut (the
/// look-back): along the parent's cut axis every left body's key lies in [key(lower), pivot] and every right one's in
/// [pivot, key(upper)], along the other axes in the parent's range; the child's axis is the longest side of its box
/// with the cut at the pivot. The child's split keeps the frame (orbLayoutChildrenKernel, OrbGpu.cu), unless the real
/// cut made another side the longest, and then the child takes its own first pass. Only a child that the next level
/// splits, with bodies, a frame of more than two digits (so that its first pass is pass 0), and weights that are
/// counted or narrow.
struct ChildDigit {
    std::uint32_t base;  ///< the frame's lowest key along axis
    std::uint32_t bits;  ///< the frame's bits
    std::int32_t axis;   ///< the child's cut axis, as predicted
    std::int32_t shift;  ///< the bit where its first digit starts
    std::uint32_t entry; ///< the child's entry in level.nextSplits (its bin slot: level.childBins(entry))
    bool taken;          ///< this scatter takes the child's first pass
};

/// Thread 0: the first digits of both children of a split whose pivot and left count (split.split) are known.
__device__ __forceinline__ void childDigits(const OrbLevel& level, const OrbSplit& split, bool narrowOrCounted,
                                            ChildDigit (&children)[2]) {
    const OrbCell& parent = level.cells[split.cell];
    const int cutAxis = split.axis;
    const std::uint32_t low = orderedKey(parent.lower[cutAxis]), high = orderedKey(parent.upper[cutAxis]);
    const std::uint32_t pivot = min(max(split.pivot, low), high); // ~0u: every body goes left
    const std::uint32_t bodies[2] = {split.split - split.begin, split.end - split.split};
    for (int side = 0; side < 2; ++side) {
        OrbCell box = parent;
        if (side == 0)
            box.upper[cutAxis] = keyToFloat(pivot);
        else
            box.lower[cutAxis] = keyToFloat(pivot);
        ChildDigit& child = children[side];
        child.axis = longestAxis(box);
        std::uint32_t frameLow = orderedKey(parent.lower[child.axis]), frameHigh = orderedKey(parent.upper[child.axis]);
        if (child.axis == cutAxis)
            (side == 0 ? frameHigh : frameLow) = pivot;
        const CutKeyRange frame = keyRange(child.axis, frameLow, frameHigh);
        child.base = frame.low;
        child.bits = frame.bits;
        child.shift = firstDigitShift(child.bits);
        const std::uint32_t cellIndex = std::uint32_t(parent.leftChild) + std::uint32_t(side);
        child.entry = cellIndex - level.nextFirstCell;
        child.taken = narrowOrCounted && level.cells[cellIndex].domainCount > 1 && bodies[side] > 0 &&
                      child.bits > (kOrbRadixPasses - 1) * kOrbRadixDigitBits;
    }
}

/// Block-wide, after the tile's rows are in its children's shared histogram (bins, kOrbRadixBins per child): adds
/// them to the children's bins, counts in pairs, narrow weights shifted left by weightShift into fixed point.
__device__ __forceinline__ void flushChildBins(const OrbLevel& level, const ChildDigit (&children)[2],
                                               const std::uint32_t* bins, bool useWeights, int weightShift) {
    for (int side = 0; side < 2; ++side) {
        if (!children[side].taken)
            continue;
        const std::uint32_t* sideBins = bins + side * kOrbRadixBins;
        if (!useWeights) {
            addCountsToCellBins(level, level.childBins(children[side].entry), sideBins);
            continue;
        }
        auto* cellWeights = reinterpret_cast<unsigned long long*>(
            level.binWeights + std::size_t(level.childBins(children[side].entry)) * kOrbRadixBins);
        for (int k = 0; k < kBinsPerThread; ++k) {
            const std::uint32_t bin = threadIdx.x + k * kOrbTileThreads;
            if (sideBins[bin] > 0)
                atomicAdd(&cellWeights[bin], (unsigned long long)sideBins[bin] << weightShift);
        }
    }
}

/// Block-wide, before the rows move, in a scatter that takes the children's first pass: thread 0 finds the children's
/// digits (ChildDigit), every thread clears its share of the tile's histograms (kOrbRadixBins per child).
__device__ __forceinline__ void startChildBins(const OrbLevel& level, const OrbSplit& split, bool useWeights,
                                               ChildDigit (&children)[2], std::uint32_t* bins) {
    if (threadIdx.x == 0)
        childDigits(level, split, !useWeights || level.state->narrowShift >= 0, children);
    for (int k = 0; k < 2 * kBinsPerThread; ++k)
        bins[threadIdx.x + k * kOrbTileThreads] = 0;
}

/// Block-wide, once every row has moved: the tile's histograms into the children's bins (narrow weights in `units`,
/// moveTile's). The cell's first tile marks each taken child (OrbSplit::preselected), whose digit
/// orbLayoutChildrenKernel then selects: that kernel's boundary orders every tile's bins before it, so no tile fences
/// and counts itself in (ncu, 2^27 bodies / 4096 domains, work balance: 11% of the scatter's stall samples were its
/// warps waiting at the barrier behind that fence).
__device__ __forceinline__ void finishChildBins(const OrbLevel& level, const Tile& tile,
                                                const ChildDigit (&children)[2], const std::uint32_t* bins,
                                                bool useWeights, const NarrowUnits& units) {
    if (!(children[0].taken || children[1].taken))
        return;
    __syncthreads();
    flushChildBins(level, children, bins, useWeights, units.shift);
    if (tile.local == 0 && threadIdx.x == 0)
        for (int side = 0; side < 2; ++side)
            if (children[side].taken) {
                OrbSplit& child = level.nextSplits[children[side].entry];
                child.axis = children[side].axis; // the frame, which the child's selection checks and keeps
                child.keyBase = children[side].base;
                child.keyBits = children[side].bits;
                child.preselected = 1;
            }
}

/// One moved body into its child's shared histogram (side 0: left, 1: right): its count, or its narrow weight.
template <ScatterMoves kMoves>
__device__ __forceinline__ void addToChildBins(const TileRecords<kMoves>& records, int row, const ChildDigit& child,
                                               int side, bool useWeights, float narrowScale, std::uint32_t* bins) {
    const std::uint32_t key = orderedKey(records.along(child.axis, row));
    const std::uint32_t digit = (key - child.base) >> child.shift;
    std::uint32_t value = 1;
    if constexpr (TileRecords<kMoves>::kWeights)
        if (useWeights)
            value = narrowWeight(records.weights[row], narrowScale);
    if (value > 0)
        atomicAdd(&bins[side * kOrbRadixBins + digit], value);
}

/// Scatter tiles resident per multiprocessor: kOrbScatterTilesPerMultiprocessor, but three for the last level's
/// scatter, which moves the index alone (72 registers). Under work balance the cells' sizes are not multiples of a
/// tile, each adds a partial tile, and the deepest levels hold more tiles than two per multiprocessor (2^20 / 64: up to
/// 288 on the H200's 264 slots; the last scatter 14.7 -> 11.4 us, the build 0.341 -> 0.338 ms).
template <ScatterMoves kMoves>
inline constexpr unsigned kScatterTilesPerSM =
    kMoves == ScatterMoves::IndexOnly ? 3 : kOrbScatterTilesPerMultiprocessor;

/// Whether a tile of split may move before the kernel before the scatter (the level's last radix pass) has finished
/// (OrbLevel::movesFoundSplitsEarly): a leaf that is only copied, or a resolved split found before that pass, whose
/// fields the kernels before it wrote, and which it leaves alone. Read before the wait: a split that the last pass
/// finds reads as not found yet or as found by that pass (kOrbPivotFoundByLastPass), and its tiles wait.
__device__ __forceinline__ bool movesBeforeLastPass(const OrbLevel& level, const OrbSplit& split) {
    if (!level.movesFoundSplitsEarly)
        return false;
    if (split.copyOnly != 0)
        return true;
    return *static_cast<const volatile std::uint32_t*>(&split.done) == kOrbPivotFound && split.resolved != 0;
}

/// Block-wide: moves a loaded tile of a cell to split (not a copied leaf) once its pivot and ties are known.
template <ScatterMoves kMoves, bool kChildren>
__device__ __forceinline__ void moveTile(const OrbLevel& level, OrbSplit& split, std::uint32_t tileIndex,
                                         const Tile& tile, const TileRecords<kMoves>& records) {
    __shared__ WarpTallies tallies;
    __shared__ ChildDigit children[2];
    __shared__ alignas(8) std::uint32_t childBins[kChildren ? 2 * kOrbRadixBins : 1]; // flushed as count pairs
    constexpr bool kStaged = kMoves == ScatterMoves::RecordsAndWeights;               // see TileMove
    __shared__ std::uint32_t staging[kStaged ? kOrbTileBodies : 1]; // one array of the tile's records, sorted by side
    const OrbRecords to = level.to;
    // Offsets come from the look-back only for resolved splits whose last radix pass could not count the tiles.
    const bool lookingBack = split.resolved != 0 && split.offsetsReady == 0;
    const std::uint32_t tiesLeft = split.tiesLeft, splitBody = split.split;
    // The children's first radix digits are counted as the bodies move, in frames taken from the pivot.
    const bool useWeights = kChildren && weighted(level); // read only when needed: a load on every tile's path
    if constexpr (kChildren)
        startChildBins(level, split, useWeights, children, childBins);
    PivotRows rows(tile, records, split.axis, split.pivot);
    tallies.share(rows, lookingBack);
    const uint2 tileBefore = countsBeforeTile(level, split, tileIndex, lookingBack, tallies);
    const uint2 warpBefore = tallies.add(int(threadIdx.x / 32), tileBefore);
    std::uint32_t lessBefore = warpBefore.x, equalBefore = warpBefore.y;
    const std::uint32_t leftBeforeTile = tileBefore.x + min(tileBefore.y, tiesLeft); // the cell's, before this tile
    TileMove move;
    if constexpr (kStaged)
        move = TileMove(split, tile, tileBefore, leftBeforeTile, tallies, tiesLeft, splitBody, staging);
    const unsigned below = laneMaskBelow(), bit = 1u << (threadIdx.x & 31);
    // Children are taken under work balance only with narrow weights (startChildBins), so other units go unused.
    const NarrowUnits units = useWeights && level.state->narrowShift >= 0 ? narrowUnits(*level.state) : kFixedPointUnits;
    for (int row = 0; row < kRowsPerWarp; ++row) {
        if (tile.holds(row)) {
            const std::uint32_t lessRank = lessBefore + __popc(rows.lessMask[row] & below);
            const std::uint32_t equalRank = equalBefore + __popc(rows.equalMask[row] & below);
            const std::uint32_t leftBefore = lessRank + min(equalRank, tiesLeft);
            const bool left =
                (rows.lessMask[row] & bit) != 0 || ((rows.equalMask[row] & bit) != 0 && equalRank < tiesLeft);
            if constexpr (kStaged) {
                const std::uint32_t leftInTile = leftBefore - leftBeforeTile;
                move.position[row] = left ? leftInTile : move.leftCount + tile.offset(row) - leftInTile;
            } else {
                const std::uint32_t inCell = tile.body(row) - split.begin;
                records.store(row, left ? split.begin + leftBefore : splitBody + inCell - leftBefore, to);
            }
            if constexpr (kChildren) {
                const int side = left ? 0 : 1;
                if (children[side].taken)
                    addToChildBins(records, row, children[side], side, useWeights, units.scale, childBins);
            }
        }
        lessBefore += __popc(rows.lessMask[row]);
        equalBefore += __popc(rows.equalMask[row]);
    }
    if constexpr (kStaged)
        records.moveArrays(move, to);
    if constexpr (kChildren)
        finishChildBins(level, tile, children, childBins, useWeights, units);
}

// Per body: 16 bytes read and 16 written (+ 4 and 4 of weight, RecordsAndWeights; 8 read and 4 written, IndexOnly).
// Each warp ranks its 512 bodies by ballots, row by row, so the stable order needs no per-body flag or prefix array;
// the scatter that moves the weights stages each array in shared memory in that order first (TileMove).
// A resolved split's tiles find their offsets and the extreme keys before them by look-back; its last tile places the
// cut. Other splits read the offsets that the last radix pass or the count pass wrote, and with kChildren their tiles
// also count the bodies into their children's first-digit bins, which orbLayoutChildrenKernel selects from
// (ChildDigit).
// Tiles of splits found before the level's last radix pass move while it runs (movesBeforeLastPass).
// Two blocks per multiprocessor: at 2^20 bodies the level's 256 tiles then run in one wave (kScatterTilesPerSM).
template <ScatterMoves kMoves, bool kChildren>
__global__ void __launch_bounds__(kOrbTileThreads, kScatterTilesPerSM<kMoves>) orbScatterKernel(OrbLevel level) {
    static_assert(!kChildren || kMoves != ScatterMoves::IndexOnly, "the last level has no children to split");
    __shared__ std::uint32_t ticket;
    // The tile and its records come from the layout and the previous level, older than the kernel before (dependent
    // launch); the pivot, the ties and the offsets come from that kernel, but for splits found before it.
    if (threadIdx.x == 0)
        ticket = atomicAdd(level.tileTicket, 1u);
    __syncthreads();
    const std::uint32_t tileIndex = ticket;
    const int splitIndex = findSplit(level.splits, level.splitCount, tileIndex);
    TileRecords<kMoves> records;
    Tile tile{};
    bool early = false;
    if (splitIndex >= 0) {
        const OrbSplit& split = level.splits[splitIndex];
        tile = tileOf(split, tileIndex);
        records.load(tile, level.from, split.copyOnly != 0 ? 0 : split.axis); // a copied leaf has no cut axis
        early = movesBeforeLastPass(level, split);
    }
    if (!early) {
        waitForPreviousKernel();
        allowNextKernel();
    }
    if (splitIndex >= 0) {
        OrbSplit& split = level.splits[splitIndex];
        if (split.copyOnly != 0)
            records.copy(tile, level.to);
        else
            moveTile<kMoves, kChildren>(level, split, tileIndex, tile, records);
    }
    // Every block waits (DependentLaunch.cuh), so that the scatter's end still orders the last pass before the next
    // kernel.
    if (early) {
        waitForPreviousKernel();
        allowNextKernel();
    }
}

} // namespace

void launchOrbScatter(const OrbLevel& level, bool lastLevel, bool keepFinalCoordinates, cudaStream_t stream) {
    // The children's first pass rides along whenever the next level splits: the pass it saves reads every body, or
    // at 2^20 bodies, whose levels fit one wave, is a kernel of 9 to 23 us.
    const bool children = level.nextSplits != nullptr;
    using Kernel = void (*)(OrbLevel);
    Kernel kernel = orbScatterKernel<ScatterMoves::Records, false>;
    if (lastLevel && !keepFinalCoordinates)
        kernel = orbScatterKernel<ScatterMoves::IndexOnly, false>;
    else if (!lastLevel && level.workBalance)
        kernel = children ? orbScatterKernel<ScatterMoves::RecordsAndWeights, true>
                          : orbScatterKernel<ScatterMoves::RecordsAndWeights, false>;
    else if (children)
        kernel = orbScatterKernel<ScatterMoves::Records, true>;
    launchDependent("orbScatterKernel", kernel, level.gridTiles, kOrbTileThreads, stream, level);
}

} // namespace gravlab
