#pragma once
// Kernels of the GPU ORB behind launch functions free of device code (OrbGpu.cu: extraction, level layouts, final
// gather; OrbGpuSelect.cu: cut finders; OrbGpuPartition.cu: tile counts, cuts, stable scatter with OrbGpuLookBack.cuh;
// OrbGpuImbalance.cu).
// See OrbGpu.hpp for the design.
#include "device/cuda/DeviceBuffer.hpp"

#include <gravlab/sim/Orb.hpp>

#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// How a level's pivot keys are found; both give the same key, so the same cells.
enum class OrbCutFinder {
    Bisection,   ///< the baseline: 32 counting passes over the keys per level, one bracket halving each
    RadixSelect, ///< at most 3 passes of 11-bit digit histograms per level, each fixing one digit of the pivot key
};

/// How the scatter of a split that radix select resolved learns where each tile's bodies go.
enum class OrbTileOffsets {
    Automatic,    ///< FromLastPass when N / kOrbTileBodies tiles exceed what the scatter runs at once, else LookBack
    FromLastPass, ///< the last radix pass counts every tile against the pivot; its cell's last tile scans the counts
    LookBack,     ///< each scatter tile adds up the counts of the tiles before it (decoupled look-back)
};

/// Bodies per tile: every level kernel runs one block of kOrbTileThreads threads per tile, and a tile belongs to
/// exactly one cell of the level (8 warps x 16 rows of 32 consecutive bodies).
inline constexpr std::uint32_t kOrbTileBodies = 4096;
inline constexpr unsigned kOrbTileThreads = 256;
/// Scatter tiles resident per multiprocessor (its launch bound: the records sit in registers).
inline constexpr unsigned kOrbScatterTilesPerMultiprocessor = 2;
/// Radix select: at most 3 passes of 11-bit digits of a key measured from the cell's lower side, 2048 bins per cell.
inline constexpr int kOrbRadixDigitBits = 11;
inline constexpr std::uint32_t kOrbRadixPasses = 3;
inline constexpr std::uint32_t kOrbRadixBins = 1u << kOrbRadixDigitBits;
/// Work balance: when every weight is an integer below this bound at one common scale (Gravlab's weights are
/// interaction counts times power-of-two level multiplicities), a tile sums them in 32 bits (kOrbTileBodies of them
/// stay below 2^32) and the radix passes take one conversion, one reduction and one atomic per weight.
inline constexpr std::uint32_t kOrbNarrowWeightBits = 20;
static_assert(kOrbNarrowWeightBits + 12 <= 32 && (1u << 12) == kOrbTileBodies);
/// Narrow weights of a cell summed in the low bits of a 64-bit bin word whose high bits count the cell's bodies
/// (OrbLevel::packsCountsWithWeights): below 2^kOrbPackedBodies bodies the weight sums stay below 2^42 and the counts
/// fit the other 22 bits.
inline constexpr int kOrbPackedWeightBits = 42;
inline constexpr int kOrbPackedBodies = 64 - kOrbPackedWeightBits;
static_assert(kOrbNarrowWeightBits + kOrbPackedBodies <= kOrbPackedWeightBits);

/// Per tile of the last radix pass: the final digits of up to this many bodies that match the pivot's digits fixed
/// before it, which lets the cell's last tile count every tile against the pivot (more in one tile: the scatter looks
/// back instead).
inline constexpr std::uint32_t kOrbTileMatchSlots = 32;
/// A match slot: the body's final digit (kOrbRadixDigitBits) and its place in its tile, where work balance finds the
/// weights of the bodies equal to the pivot when several of them decide the cut.
inline constexpr std::uint32_t orbTileMatch(std::uint32_t digit, std::uint32_t inTile) {
    return inTile << 16 | digit;
}
inline constexpr std::uint32_t orbTileMatchDigit(std::uint32_t match) {
    return match & 0xffffu;
}
inline constexpr std::uint32_t orbTileMatchPlace(std::uint32_t match) {
    return match >> 16;
}
static_assert(kOrbRadixDigitBits <= 16 && kOrbTileBodies <= 1u << 16);

/// 64-bit words per tile and level of the scatter's look-back: the tile's counts below and equal to the pivot and its
/// extreme keys, each with its state (OrbGpuLookBack.cuh).
inline constexpr std::uint32_t kOrbLookBackWordsPerTile = 4;

/// OrbSplit::done: the pivot key is found (by the layout, a selection before the level's last radix pass, or
/// bisection), or found by the level's last radix pass (its last digit). The scatter tells them apart: it moves the
/// tiles of splits found before the last pass while that pass still runs (OrbLevel::movesFoundSplitsEarly).
inline constexpr std::uint32_t kOrbPivotFound = 1;
inline constexpr std::uint32_t kOrbPivotFoundByLastPass = 2;

/// One cell of the level being processed: a cell to split, or (copyOnly) a leaf whose records only change buffer.
/// The host sets cell and copyOnly; the level's layout (the root's layout kernel, or below it under radix select the
/// children's layout after the scatter above) fills the rest.
struct OrbSplit {
    std::uint32_t cell;        ///< index in the cell array
    std::uint32_t copyOnly;    ///< 1: a leaf of this level, its records are copied to the other buffer unchanged
    std::uint32_t preselected; ///< 1: the parent's scatter took this split's first radix pass (beside copyOnly, which
                               ///< every pass reads first: one sector)
    std::uint32_t begin, end;  ///< the cell's bodies
    std::uint32_t tileBegin;   ///< first tile of the level that belongs to this cell
    std::uint32_t tileCount;   ///< ceil((end - begin) / kOrbTileBodies)
    std::uint32_t binSlot;     ///< radix bins of cells of more than one tile, numbered over the level
    std::int32_t axis;         ///< the cut axis (longest side)
    std::uint32_t firstPass;   ///< radix select: the first of the level's passes this split takes part in
    std::uint32_t keyBase;     ///< radix select: the key of the box's lower side, which the digits are measured from
    std::uint32_t keyBits;     ///< radix select: bits of the box's key range (upper key - keyBase)
    std::uint32_t fixedDigits; ///< radix select: the pivot's digits fixed so far, measured from keyBase
    std::uint32_t done;        ///< 0, or kOrbPivotFound / kOrbPivotFoundByLastPass once the pivot key is found
    std::uint32_t pivot;       ///< the pivot key once done; bisection: lower end of the bracket
    std::uint32_t high;        ///< bisection: upper end of the bracket (inclusive)
    std::uint32_t countRank;   ///< count balance: bodies that go left (global target minus begin)
    std::uint32_t rank;        ///< count balance, radix: the pivot's rank among the bodies matching the fixed digits
    std::uint64_t target;      ///< work balance: target weight left of the cut minus the weight already below
    std::uint64_t lessWeight;  ///< work balance: weight of the bodies below the pivot's bracket or bytes
    std::uint32_t tilesDone;   ///< tiles that have reported (the last one finishes the step for the cell)
    std::uint32_t tiesLeft;    ///< bodies equal to the pivot that go left (the first ones in index order)
    std::uint32_t split;       ///< first body of the right child
    std::uint32_t lessCount;   ///< radix select: bodies below the pivot (the counts of the bins below the chosen ones;
                               ///< work balance: the last pass's tile sums, then its bins below)
    std::uint32_t equalCount;  ///< radix select: bodies equal to the pivot (the last digit's bin)
    std::uint64_t equalWeight; ///< radix select, work balance: their weight
    std::uint64_t leftTieWeight; ///< resolved: the weight of the ties that go left
    std::uint32_t resolved;      ///< 1: the selection decided tiesLeft and split, so the scatter needs no count pass
    std::uint32_t offsetsReady;  ///< 1: the last radix pass also wrote the tile offsets, the cut and the children
    std::uint32_t matchOverflow; ///< 1: a tile of the last radix pass had more matching bodies than its slots
    std::uint32_t roundCount;    ///< bisection: bodies at or below the trial key
    std::uint64_t roundWeight;   ///< bisection, work balance: their weight
};

/// Device-side results of the extraction pass; all zero bits is the initial state.
struct OrbBuildState {
    std::uint32_t lowInverted[3]; ///< ~(smallest ordered key) per axis, so that zero is the neutral start
    std::uint32_t high[3];        ///< largest ordered key per axis
    std::uint32_t nonFinite;      ///< position components that are not finite
    std::uint32_t invalidWeights; ///< work balance: weights that are negative or not finite
    std::uint32_t maxWeightBits;  ///< largest valid weight's magnitude bits (-0 as +0; these order like the weights)
    std::uint32_t fractionBits;   ///< most binary digits below the point among the valid weights (0: all integers)
    std::int32_t weightExponent;  ///< fixed-point weight = weight * 2^weightExponent, rounded
    std::int32_t narrowShift;     ///< >= 0: every weight * 2^(weightExponent - narrowShift) is an integer below 2^20
    std::uint32_t weighted;       ///< work balance in force: the largest weight is above 0 in fixed point, so the sum
                                  ///< is too (0 falls back to count balance)
    std::uint64_t totalWeight;    ///< sum of the fixed-point weights (OrbLevel::rootPassSumsWeights: who sums them)
    std::uint32_t tiesToOrder;    ///< work balance: a split's ties (several, with a target left) needed their weights
                                  ///< in index order, which only the count pass reads
    std::uint32_t ownFirstPasses; ///< a split below the root took its own first radix pass (the scatter above had not)
    std::uint32_t guessFailed;    ///< a guess of the launch sequence failed (OrbLevel::guessesTies,
                                  ///< OrbLevel::guessesFirstPasses): the build is void, and left the bodies untouched
};

/// One buffer of per-body work records (structure of arrays): coordinates, the body's index before the build and,
/// under work balance, its weight (null otherwise).
struct OrbRecords {
    float* coordinate[3];
    std::uint32_t* index; ///< null: each record's index is its place (the extraction's records, read by the root)
    float* weight;
};

/// What every level kernel needs.
struct OrbLevel {
    OrbCell* cells;
    OrbSplit* splits; ///< the level's splits
    std::uint32_t splitCount;
    std::uint64_t* cellWeightBefore; ///< per cell: weight of all bodies before its begin (work balance)
    OrbBuildState* state;
    OrbRecords from, to;         ///< the records before and after this level's partition
    uint2* tileCounts;           ///< per tile: (bodies below the pivot, bodies equal to it)
    uint2* tileOffsets;          ///< per tile: the same counted over the cell's earlier tiles
    uint2* tileExtremes;         ///< per tile: (largest key below the pivot, smallest key above it)
    std::uint64_t* tileLookBack; ///< this level's look-back words, 4 per tile (OrbGpuLookBack.cuh; 0 at the start of a
                                 ///< build)
    std::uint32_t* tileTicket;   ///< this level's scatter tile counter (0 at the start of a build)
    std::uint64_t* tileEqualWeight; ///< per tile: weight of the bodies equal to the pivot (work balance)
    std::uint32_t* tileMatches;     ///< per tile, kOrbTileMatchSlots: the last radix pass's matches (orbTileMatch)
    OrbSplit* nextSplits;           ///< the next level's splits, one per cell from nextFirstCell on; null when no next
                                    ///< level splits, or the scatter takes no child's first pass (bisection)
    std::uint32_t nextFirstCell;    ///< the cell of nextSplits[0]
    std::uint32_t nextSplitCount;   ///< entries of nextSplits
    OrbSplit* splitsAfterNext;      ///< the splits of the level after the next one, whose marks (OrbSplit::preselected)
                                    ///< the children's layout clears; null when that level does not split
    std::uint32_t firstCellAfterNext; ///< the cell of splitsAfterNext[0]
    std::uint32_t* binCounts;         ///< kOrbRadixBins per bin slot
    std::uint32_t childBinSlot;       ///< the bin slot of nextSplits[0]'s first-digit bins (childBins)
    std::uint64_t* binWeights;        ///< kOrbRadixBins per bin slot (work balance)
    std::uint32_t bodyCount;
    std::uint32_t domainCount;
    std::uint32_t gridTiles;     ///< blocks of the level's tile kernels: an upper bound on the level's tiles
    bool tallyLastPass;          ///< radix select: the last pass counts the tiles for the scatter (FromLastPass)
    bool firstPassesTaken;       ///< radix select: the scatter of the level above took most splits' first pass
                                 ///< (OrbSplit::preselected), so the level's own first pass walks chunks of tiles
    std::uint32_t chunkedBlocks; ///< at most this many blocks walk the chunks (0: as many as the device holds)
    bool workBalance;            ///< requested; the kernels fall back to count balance when the weights vanish
    bool rootPassSumsWeights;    ///< the root's level under work balance and radix select: its layout picks the
                                 ///< fixed-point scale and the root's first radix pass sums the weights (its bins),
                                 ///< so that no kernel of its own reads them (launchOrbTotalWeight serves the builds
                                 ///< by bisection or into one domain); false on every other level, whose selections
                                 ///< then test nothing more
    bool guessesTies;            ///< work balance under radix select with no count pass after the selection: a split
                                 ///< whose ties need their weights in index order is decided by a guess (every tie
                                 ///< right) and voids the build (OrbBuildState::guessFailed); the host builds again
                                 ///< with the count pass (OrbGpu::build)
    bool guessesFirstPasses;     ///< the levels below the root launch no first radix pass, expecting the scatters to
                                 ///< take every split's that needs one: a child that would take its own voids the
                                 ///< build, and is finished at once with every body left (OrbBuildState::guessFailed)
    bool movesFoundSplitsEarly;  ///< radix select with no count pass after the last radix pass: the scatter moves
                                 ///< the tiles of resolved splits found before that pass (OrbSplit::done ==
                                 ///< kOrbPivotFound) without waiting for it, and waits once they have moved

    /// The bin slot of the first-digit bins that the scatter fills for nextSplits[entry]: past the slots of the
    /// level's own passes, so that a scatter running beside its level's last pass never meets that pass's bins.
    constexpr std::uint32_t childBins(std::uint32_t entry) const { return childBinSlot + entry; }
    /// Whether this level launches no first radix pass (guessesFirstPasses, below the root), so that its second pass
    /// is the first kernel after its layout.
    constexpr bool leavesOutFirstPass() const { return firstPassesTaken && guessesFirstPasses; }
    /// Whether a selection may end at a bin's edge before its last digit (finishAtBinEdge): where the scatter looks
    /// back, which places the cut without the count of bodies on the pivot; where the last pass tallies, the scatter
    /// reads the offsets that pass writes, so every split takes it.
    constexpr bool selectionsEndAtBinEdges() const { return !tallyLastPass; }
    /// Whether the passes that count and weigh narrow weights without the tally may add both to their cells' bins in
    /// one 64-bit word per bin (level.binWeights): work balance below 2^kOrbPackedBodies bodies.
    constexpr bool packsCountsWithWeights() const {
        return workBalance && bodyCount < (std::uint32_t(1) << kOrbPackedBodies);
    }
};

/// Device words that must be 0 when the levels start (the radix bins, the look-back words, the first cell's weight
/// before it), cleared by the extraction's threads on their way: as memsets between the extraction and the levels they
/// were nodes of their own in the build's graph, each on its critical path.
struct OrbScratchToClear {
    static constexpr int kMaxRanges = 4;
    std::uint64_t* words[kMaxRanges]{};
    std::uint64_t count[kMaxRanges]{};
};

/// Resets the state and writes the records of every body (index = position) from positionMass, with the weights from
/// acceleration.w when weights is non-null; accumulates bounds, non-finite counts and the largest weight; clears the
/// scratch.
void launchOrbExtractBodies(const float4* positionMass, const float4* acceleration, std::uint32_t bodyCount,
                            OrbRecords records, OrbBuildState* state, const OrbScratchToClear& scratch,
                            cudaStream_t stream);
/// The same from separate coordinate arrays (positions-only build; count balance).
void launchOrbExtractPositions(const float* x, const float* y, const float* z, std::uint32_t bodyCount,
                               OrbRecords records, OrbBuildState* state, const OrbScratchToClear& scratch,
                               cudaStream_t stream);
/// Work balance where the root's first radix pass does not sum the weights (bisection, one domain): picks the
/// fixed-point scale from the largest weight and sums the fixed-point weights.
void launchOrbTotalWeight(OrbRecords records, std::uint32_t bodyCount, OrbBuildState* state, cudaStream_t stream);
/// Lays out the level's tiles and prepares each split (axis, key range, targets); level 0 first sets the root box.
void launchOrbLayoutLevel(const OrbLevel& level, bool rootLevel, OrbCutFinder finder, cudaStream_t stream);
/// After a scatter that took its children's first pass (level.nextSplits): lays out the next level as
/// launchOrbLayoutLevel would, one block per split, and selects the first digit of each child that scatter counted.
void launchOrbLayoutChildren(const OrbLevel& level, cudaStream_t stream);
/// Finds every split's pivot key.
void launchOrbFindPivots(const OrbLevel& level, OrbCutFinder finder, cudaStream_t stream);
/// Bisection's rounds of launchOrbFindPivots (OrbGpuBisection.cu).
void launchOrbBisectionRounds(const OrbLevel& level, cudaStream_t stream);
/// For the splits the selection left unresolved (bisection; ties under work balance that need their weights in index
/// order): counts each tile's bodies below and equal to the pivot; the last tile of a cell places the cut and the
/// children.
void launchOrbCountAndCut(const OrbLevel& level, cudaStream_t stream);
/// Moves every record of the level to its place in the other buffer (stable: left bodies, then right ones). For
/// resolved splits it finds each tile's offsets itself (decoupled look-back) and the last tile places the cut. Weights
/// move with their records under work balance, except at the last level, after which nothing reads them; there the
/// records keep their coordinates only when keepFinalCoordinates (a build of positions alone copies them back), and
/// otherwise move their index alone.
void launchOrbScatter(const OrbLevel& level, bool lastLevel, bool keepFinalCoordinates, cudaStream_t stream);
/// What a body-array gather also does with the bodies' load order (4 bytes per body), so that it needs no kernel of its
/// own: gather it through the same index into a buffer of its own. Null pointers: nothing.
struct OrbLoadOrderStep {
    const std::uint32_t* gatherSource = nullptr;
    std::uint32_t* gatherTarget = nullptr;
};
/// target[j] = source[order[j]] and the load order's step, unless the state counted a non-finite position or an
/// invalid weight, or the build is void (OrbBuildState::guessFailed).
void launchOrbGather(const float4* source, const std::uint32_t* order, float4* target, OrbLoadOrderStep loadOrder,
                     std::uint32_t bodyCount, const OrbBuildState* state, cudaStream_t stream);
/// The final records' coordinates back into x, y, z under the same condition.
void launchOrbCopyPositions(OrbRecords records, float* x, float* y, float* z, std::uint32_t bodyCount,
                            const OrbBuildState* state, cudaStream_t stream);
/// Host decoding of an ordered key back to its float.
float orbKeyToFloat(std::uint32_t key);

/// Per leaf cell: body count and weight sum (acceleration.w, or 1 per body when acceleration is null), then the
/// largest count, largest weight, total count, total weight and leaf count into results[0..4].
void launchOrbLeafLoads(const OrbCell* cells, std::uint32_t cellCount, const float4* acceleration, double* leafLoads,
                        double* results, cudaStream_t stream);

/// Uniform random positions in [-1, 1)^3 from a counter-based hash of (seed, index): fast set-up for benchmarks.
void launchOrbUniformPositions(float* x, float* y, float* z, std::uint64_t bodyCount, std::uint64_t seed,
                               cudaStream_t stream);

} // namespace gravlab
