// Cut finders of the GPU ORB: the key of the pivot body of every split of a level, by radix select (the default) or
// by bisection (the baseline, OrbGpuBisection.cu). Both find the same key: under count balance the key of rank
// countRank in the cell's (coordinate, index) order, under work balance the key of the first body whose cumulative
// weight exceeds the target. The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DependentLaunch.cuh"
#include "orb/cuda/OrbGpuDevice.cuh"
#include "orb/cuda/OrbGpuRadix.cuh"
#include "orb/cuda/OrbGpuTileScan.cuh"

#include <cub/block/block_reduce.cuh>

namespace gravlab {
namespace {

using namespace orbdevice;

/// How a radix pass weighs its bodies: not at all (count balance, or every weight 0), as 64-bit fixed point, or as the
/// integers below 2^kOrbNarrowWeightBits that the weights are at a coarser scale (OrbBuildState::narrowShift), whose
/// tile sums fit 32 bits. Narrow sums shifted left are the fixed-point sums exactly (NarrowUnits), so every weighted
/// path gives the same cuts; the narrow one costs a 32-bit conversion, reduction and atomic per weight where the wide
/// one takes a 64-bit conversion, three reductions and up to three atomics (2^27 bodies / 4096 domains under work
/// balance, the same integer weights: 72.3 -> 67.6 ms on the H200). Integer weights (NarrowUnits::integral) are their
/// own narrow units, converted with neither product nor comparison (Integer); the Narrow path, with the product, is
/// left to fractional weights, out of line.
enum class WeightPath { None, Wide, Narrow, Integer };

/// A body's weight in the units of the path: scale is 2^weightExponent (Wide) or NarrowUnits::scale (Narrow).
template <WeightPath kPath> __device__ __forceinline__ std::uint64_t rowWeight(float weight, float scale) {
    if constexpr (kPath == WeightPath::Integer)
        return __float2uint_rn(weight); // saturating, as narrowWeight
    else if constexpr (kPath == WeightPath::Narrow)
        return narrowWeight(weight, scale);
    else if constexpr (kPath == WeightPath::Wide)
        return fixedWeight(weight, scale);
    else
        return 0;
}

/// The narrow paths sum 32-bit weights.
template <WeightPath kPath>
inline constexpr bool kNarrowPath = kPath == WeightPath::Narrow || kPath == WeightPath::Integer;

template <WeightPath kPath>
__device__ __forceinline__ void addWeight(const SplitWeightBins& weights, std::uint32_t bin, std::uint64_t value) {
    if constexpr (kNarrowPath<kPath>)
        weights.addNarrow(bin, std::uint32_t(value));
    else if constexpr (kPath == WeightPath::Wide)
        weights.add(bin, value);
}

/// Adds each active lane's body to the block histogram (its count unless kCounts is false, and its weight). The first
/// digits of a cell's keys are often shared by most of its bodies (a float's exponent), and 32 lanes adding to one
/// shared counter serialise: with leaders (a split's first pass) the two most common digits of the row are therefore
/// added once each by a leader lane, the rest lane by lane. Later digits are spread over the bins, where the leaders'
/// ballots and shuffles only lengthen each row's chain of dependent steps: each lane adds its own, and the rows'
/// atomics overlap (H200, 2^20 bodies / 64 domains: work 0.341 -> 0.327 ms, count 0.254 -> 0.250). Every lane must
/// call it.
template <WeightPath kPath, bool kCounts>
__device__ __forceinline__ void addRowToHistogram(bool leaders, bool active, std::uint32_t digit, std::uint64_t weight,
                                                  std::uint32_t* counts, const SplitWeightBins& weights) {
    unsigned remaining = leaders ? __ballot_sync(kFullWarp, active) : 0u;
    for (int round = 0; round < 2 && remaining != 0; ++round) {
        const int leader = __ffs(remaining) - 1;
        const std::uint32_t leaderDigit = __shfl_sync(kFullWarp, digit, leader);
        const bool member = active && digit == leaderDigit;
        const unsigned group = __ballot_sync(kFullWarp, member);
        std::uint64_t groupWeight = 0;
        if constexpr (kNarrowPath<kPath>)
            groupWeight = warpSum(member ? std::uint32_t(weight) : 0u); // 32 weights below 2^20
        else if constexpr (kPath == WeightPath::Wide)
            groupWeight = warpSum(member ? weight : std::uint64_t(0));
        if (int(threadIdx.x & 31) == leader) {
            if constexpr (kCounts)
                atomicAdd(&counts[leaderDigit], unsigned(__popc(group)));
            if (groupWeight > 0)
                addWeight<kPath>(weights, leaderDigit, groupWeight);
        }
        active = active && !member;
        remaining &= ~group;
    }
    if (active) {
        if constexpr (kCounts)
            atomicAdd(&counts[digit], 1u);
        if (weight > 0)
            addWeight<kPath>(weights, digit, weight);
    }
}

/// Block-wide: the tile's non-empty bins added to its cell's (weights shifted left by wideShift into fixed point).
__device__ __forceinline__ void addTileToCellBins(const OrbLevel& level, const OrbSplit& split,
                                                  const std::uint32_t* counts, const SplitWeightBins& weights,
                                                  bool useCounts, bool useWeights, int wideShift) {
    addCountsToCellBins(level, split.binSlot, counts, useCounts);
    auto* cellWeights =
        reinterpret_cast<unsigned long long*>(level.binWeights + std::size_t(split.binSlot) * kOrbRadixBins);
    for (int k = 0; useWeights && k < kBinsPerThread; ++k) {
        const std::uint32_t bin = threadIdx.x + k * kOrbTileThreads;
        if (weights[bin] > 0)
            atomicAdd(&cellWeights[bin], weights[bin] << wideShift);
    }
}

/// Block-wide, a pass that counts and weighs narrow weights where a cell's narrow weight stays below
/// 2^kOrbPackedWeightBits (OrbLevel::packsCountsWithWeights): the tile's non-empty bins added to its cell's as one
/// 64-bit word per bin, the count above the weight, so a bin costs one atomic where separate counts and weights cost
/// one and a half. The words' sums never carry from the weight into the count (every cell sum stays below the bound).
__device__ __forceinline__ void addPackedTileToCellBins(const OrbLevel& level, const OrbSplit& split,
                                                        const std::uint32_t* counts, const SplitWeightBins& weights) {
    auto* cellWords =
        reinterpret_cast<unsigned long long*>(level.binWeights + std::size_t(split.binSlot) * kOrbRadixBins);
    for (int k = 0; k < kBinsPerThread; ++k) {
        const std::uint32_t bin = threadIdx.x + k * kOrbTileThreads;
        if (counts[bin] > 0)
            atomicAdd(&cellWords[bin], std::uint64_t(counts[bin]) << kOrbPackedWeightBits | weights.low[bin]);
    }
}

/// Block-wide, in the one tile that reads a cell's packed bins (addPackedTileToCellBins) once every tile has added to
/// them: this thread's kBinsPerThread consecutive bins as counts and fixed-point weights (narrow ones shifted left by
/// NarrowUnits::shift), read through L2 in 16-byte words and cleared.
__device__ __forceinline__ void takePackedCellBins(const OrbLevel& level, std::uint32_t slot, int shift,
                                                   std::uint32_t (&binCounts)[kBinsPerThread],
                                                   std::uint64_t (&binWeights)[kBinsPerThread]) {
    constexpr std::uint64_t kWeightMask = (std::uint64_t(1) << kOrbPackedWeightBits) - 1;
    auto* wordPairs = reinterpret_cast<ulonglong2*>(level.binWeights + std::size_t(slot) * kOrbRadixBins +
                                                    threadIdx.x * kBinsPerThread);
    for (int q = 0; q < kBinsPerThread / 2; ++q) {
        const ulonglong2 two = __ldcg(&wordPairs[q]);
        wordPairs[q] = make_ulonglong2(0, 0);
        binCounts[2 * q] = std::uint32_t(two.x >> kOrbPackedWeightBits);
        binCounts[2 * q + 1] = std::uint32_t(two.y >> kOrbPackedWeightBits);
        binWeights[2 * q] = (two.x & kWeightMask) << shift;
        binWeights[2 * q + 1] = (two.y & kWeightMask) << shift;
    }
}

/// Block-wide, once the tile's histogram is complete: this thread's kBinsPerThread consecutive bins of the whole cell.
/// A cell of one tile has them at once; otherwise every tile adds its non-empty bins to the cell's (packed: counts and
/// narrow weights in one word per bin), and only the last tile to arrive gets them (and clears the cell's bins for the
/// next pass or level). False in the other tiles. The tile's weights are shifted left by wideShift into fixed point
/// (NarrowUnits::shift for narrow weights, else 0). Without counts (useCounts false) the tile's count histogram was not
/// built and the counts read as 0.
__device__ __forceinline__ bool cellBins(const OrbLevel& level, OrbSplit& split, const std::uint32_t* counts,
                                         const SplitWeightBins& weights, bool useCounts, bool useWeights, bool packed,
                                         int wideShift, std::uint32_t (&binCounts)[kBinsPerThread],
                                         std::uint64_t (&binWeights)[kBinsPerThread]) {
    const std::uint32_t firstBin = threadIdx.x * kBinsPerThread;
    if (split.tileCount > 1) {
        if (packed)
            addPackedTileToCellBins(level, split, counts, weights);
        else
            addTileToCellBins(level, split, counts, weights, useCounts, useWeights, wideShift);
        if (!lastTileOfSplit(split))
            return false;
        if (packed)
            takePackedCellBins(level, split.binSlot, wideShift, binCounts, binWeights);
        else
            takeCellBins(level, split.binSlot, useCounts, useWeights, binCounts, binWeights);
    } else {
        for (int k = 0; k < kBinsPerThread; ++k) {
            binCounts[k] = useCounts ? counts[firstBin + k] : 0u;
            binWeights[k] = useWeights ? weights[firstBin + k] << wideShift : 0ull;
        }
    }
    return true;
}

/// The last pass's tally of one tile against the pivot's digits fixed before it: the bodies below them, their largest
/// key and the smallest key above them, and for the bodies that match them their final digit and place in the tile
/// (orbTileMatch), in shared memory.
struct MatchTally {
    std::uint32_t below[kWarpsPerTile], maxBelow[kWarpsPerTile], minAbove[kWarpsPerTile];
    std::uint32_t matches;
    std::uint32_t slots[kOrbTileMatchSlots];

    /// Warp-wide, after the rows: this warp's count below (already warp-uniform) and extreme keys into its entries.
    __device__ __forceinline__ void closeWarp(std::uint32_t warpBelow, std::uint32_t maxBelowKey,
                                              std::uint32_t minAboveKey) {
        maxBelowKey = warpMax(maxBelowKey);
        minAboveKey = warpMin(minAboveKey);
        if ((threadIdx.x & 31) == 0) {
            below[threadIdx.x / 32] = warpBelow;
            maxBelow[threadIdx.x / 32] = maxBelowKey;
            minAbove[threadIdx.x / 32] = minAboveKey;
        }
    }
    /// After the rows: the tile's bodies below the digits fixed before the pass.
    __device__ __forceinline__ std::uint32_t tileBelow() const {
        std::uint32_t sum = 0;
        for (int w = 0; w < kWarpsPerTile; ++w)
            sum += below[w];
        return sum;
    }
};

/// Per row of the last pass: this thread's body against the fixed digits (prefix) of the pivot. Counting stops soon
/// after the slots are full, since more matches only mean overflow: a tile whose bodies all match (a cell whose keys
/// span one pass's digit, many bodies on one plane) would otherwise serialise 4096 shared atomics.
__device__ __forceinline__ void tallyRow(bool valid, std::uint32_t key, std::uint32_t keyPrefix,
                                         std::uint32_t pivotPrefix, std::uint32_t digit, std::uint32_t inTile,
                                         MatchTally& tally, std::uint32_t& below, std::uint32_t& maxBelow,
                                         std::uint32_t& minAbove) {
    const bool isBelow = valid && keyPrefix < pivotPrefix;
    below += __popc(__ballot_sync(kFullWarp, isBelow));
    if (isBelow)
        maxBelow = max(maxBelow, key);
    if (valid && keyPrefix > pivotPrefix)
        minAbove = min(minAbove, key);
    if (valid && keyPrefix == pivotPrefix &&
        *static_cast<volatile std::uint32_t*>(&tally.matches) <= kOrbTileMatchSlots) {
        const std::uint32_t slot = atomicAdd(&tally.matches, 1u);
        if (slot < kOrbTileMatchSlots)
            tally.slots[slot] = orbTileMatch(digit, inTile);
    }
}

/// Thread 0, after the rows: the tile's tally into the level's per-tile arrays (counts: (below, matches); extremes),
/// its matches into its slots, and a mark on the split when they did not fit.
__device__ __forceinline__ void publishTally(const OrbLevel& level, OrbSplit& split, std::uint32_t tileIndex,
                                             const MatchTally& tally) {
    const uint2 counts = make_uint2(tally.tileBelow(), tally.matches);
    uint2 extremes = make_uint2(0, ~0u);
    for (int w = 0; w < kWarpsPerTile; ++w) {
        extremes.x = max(extremes.x, tally.maxBelow[w]);
        extremes.y = min(extremes.y, tally.minAbove[w]);
    }
    level.tileCounts[tileIndex] = counts;
    level.tileExtremes[tileIndex] = extremes;
    std::uint32_t* slots = level.tileMatches + std::size_t(tileIndex) * kOrbTileMatchSlots;
    for (std::uint32_t m = 0; m < min(tally.matches, kOrbTileMatchSlots); ++m)
        slots[m] = tally.slots[m];
    if (tally.matches > kOrbTileMatchSlots)
        atomicExch(&split.matchOverflow, 1u);
}

/// What a pass compares each key with, measured from the split's keyBase: the digit it counts (at shift, digitMask
/// wide) and the pivot's digits fixed by the passes before (the bits of fixedBits at and above prefixShift; none in
/// the split's first pass, where prefixShift is the range's bit count).
struct PassDigits {
    int pass, shift, prefixShift;
    std::uint32_t base, digitMask, fixedBits;
    bool first; ///< the split's first pass, whose digits may crowd few bins (addRowToHistogram's leaders)

    __device__ PassDigits(const OrbSplit& split, int levelPass) {
        pass = levelPass;
        prefixShift = int(split.keyBits) - kOrbRadixDigitBits * (levelPass - int(split.firstPass));
        shift = max(prefixShift - kOrbRadixDigitBits, 0); // the split's last pass ends at bit 0
        base = split.keyBase;
        digitMask = (1u << (prefixShift - shift)) - 1u;
        fixedBits = split.fixedDigits;
        first = levelPass == int(split.firstPass);
    }
    /// The lowest key that matches the fixed digits.
    __device__ std::uint32_t lowestMatch() const { return base + fixedBits; }
};

/// What a radix pass does besides its digit's histogram. Work balance selects by weight alone, so a pass before the
/// last builds no count histogram (a third fewer shared atomics per body there, and no count flush or scan); the last
/// pass counts too, for the bodies equal to the pivot (its chosen bin), and counts each tile's bodies below the digits
/// fixed before it, whose sum over the cell stands for the counts below the pivot the earlier passes no longer keep.
/// Where the scatter looks back, the passes after the first count in the same way (FinalDigit), so that a selection
/// may end at a bin's edge (finishAtBinEdge). The last pass may also tally the tiles for the scatter
/// (OrbTileOffsets::FromLastPass), which counts them below too.
enum class RadixPass {
    Digit,              ///< a pass before the last (and, under count balance, a last pass without the tally)
    FinalDigit,         ///< work balance: the last pass without the tally, and the passes after the first before it
    FinalDigitAndTally, ///< the last pass with the tally
};

/// This thread's rows into the tile's histogram and, in the last pass, the count below (or the whole tally against)
/// the fixed digits into tally.
template <WeightPath kPath, RadixPass kPass>
__device__ __forceinline__ void histogramRows(const Tile& tile, const float (&coordinates)[kRowsPerWarp],
                                              const float (&rowWeights)[kRowsPerWarp], float scale, const PassDigits& d,
                                              std::uint32_t* counts, const SplitWeightBins& weights,
                                              MatchTally& tally) {
    constexpr bool kCounts = kPath == WeightPath::None || kPass != RadixPass::Digit;
    constexpr bool kTally = kPass == RadixPass::FinalDigitAndTally;
    constexpr bool kBelow = kPass == RadixPass::FinalDigit && kPath != WeightPath::None;
    // FinalDigit (work balance's passes after the first one) is rarely a split's first pass, and the run-time test
    // there costs more than the leaders save (2^20 / 64 work 0.327 -> 0.335 ms).
    const bool leaders = kPass != RadixPass::FinalDigit && d.first;
    std::uint32_t below = 0, maxBelow = 0, minAbove = ~0u;
    for (int row = 0; row < kRowsPerWarp; ++row) {
        const bool valid = tile.holds(row);
        const std::uint32_t key = orderedKey(coordinates[row]);
        const std::uint32_t offset = key - d.base; // every record lies in its cell's key range
        // Only a Digit instance runs pass 0 (where every body of a selecting split matches, and prefixShift may be 32);
        // in the last pass's instances a run-time test for it made the compiler emit the row loop twice, and the
        // smaller code helps (2^27 / 4096: count 49.6 -> 48.6 ms, work 63.1 -> 62.2).
        const bool active = valid && ((kPass == RadixPass::Digit && d.pass == 0) ||
                                      (offset >> d.prefixShift) == (d.fixedBits >> d.prefixShift));
        const std::uint64_t weight = active ? rowWeight<kPath>(rowWeights[row], scale) : 0ull;
        addRowToHistogram<kPath, kCounts>(leaders, active, (offset >> d.shift) & d.digitMask, weight, counts, weights);
        if constexpr (kTally)
            tallyRow(valid, key, offset >> d.prefixShift, d.fixedBits >> d.prefixShift, offset & d.digitMask,
                     tile.offset(row), tally, below, maxBelow, minAbove);
        else if constexpr (kBelow)
            below +=
                __popc(__ballot_sync(kFullWarp, valid && (offset >> d.prefixShift) < (d.fixedBits >> d.prefixShift)));
    }
    if constexpr (kTally)
        tally.closeWarp(below, maxBelow, minAbove);
    else if constexpr (kBelow)
        if ((threadIdx.x & 31) == 0)
            tally.below[threadIdx.x / 32] = below;
}

/// The same for the work-balanced kernel's rare paths (every weight 0, or weights that are not narrow integers), out of
/// line and loading the rows again, so that the kernel's code is mostly its common path.
template <WeightPath kPath, RadixPass kPass>
__device__ __noinline__ void histogramTileOutOfLine(Tile tile, const float* along, const float* weight, float scale,
                                                    PassDigits d, std::uint32_t* counts, SplitWeightBins weights,
                                                    MatchTally& tally) {
    float coordinates[kRowsPerWarp], rowWeights[kRowsPerWarp];
    loadTileRows<true>(tile, along, weight, coordinates, rowWeights);
    histogramRows<kPath, kPass>(tile, coordinates, rowWeights, scale, d, counts, weights, tally);
}

/// The tile's rows into its histogram along the weight path in force: none in the count-balanced instance; in the
/// work-balanced one integer weights inline, the rare paths (fractional narrow weights, wide ones, every weight 0) out
/// of line. units: the narrow units where narrowShift >= 0.
template <bool kWeights, RadixPass kPass>
__device__ __forceinline__ void
histogramTile(const OrbLevel& level, const OrbSplit& split, const Tile& tile, const float (&coordinates)[kRowsPerWarp],
              const float (&rowWeights)[kRowsPerWarp], bool useWeights, int narrowShift, const NarrowUnits& units,
              const PassDigits& digits, std::uint32_t* counts, const SplitWeightBins& weights, MatchTally& tally) {
    const int exponent = kWeights ? level.state->weightExponent : 0;
    const float* along = level.from.coordinate[split.axis];
    if constexpr (!kWeights)
        histogramRows<WeightPath::None, kPass>(tile, coordinates, rowWeights, 1.0f, digits, counts, weights, tally);
    else if (narrowShift >= 0 && units.integral)
        histogramRows<WeightPath::Integer, kPass>(tile, coordinates, rowWeights, 1.0f, digits, counts, weights, tally);
    else if (narrowShift >= 0)
        histogramTileOutOfLine<WeightPath::Narrow, kPass>(tile, along, level.from.weight, units.scale, digits, counts,
                                                          weights, tally);
    else if (useWeights)
        histogramTileOutOfLine<WeightPath::Wide, kPass>(tile, along, level.from.weight, weightScale(exponent), digits,
                                                        counts, weights, tally);
    else
        histogramTileOutOfLine<WeightPath::None, kPass>(tile, along, level.from.weight, 1.0f, digits, counts, weights,
                                                        tally);
}

/// Block-wide, in the root's first pass where it sums the weights (OrbLevel::rootPassSumsWeights): every body matches
/// there, so the cell's weight bins add up to the total weight, which gives the root its target.
__device__ __forceinline__ void sumRootBins(const OrbLevel& level, OrbSplit& split,
                                            const std::uint64_t (&binWeights)[kBinsPerThread]) {
    using Reduce = cub::BlockReduce<std::uint64_t, kOrbTileThreads>;
    __shared__ typename Reduce::TempStorage reduceStorage;
    std::uint64_t total = 0;
    for (int k = 0; k < kBinsPerThread; ++k)
        total += binWeights[k];
    total = Reduce(reduceStorage).Sum(total);
    if (threadIdx.x == 0)
        takeRootTotal(level, split, total);
    __syncthreads(); // selectDigit reads the target in every thread
}

/// Block-wide, with the bins of the whole cell: selects the pass's digit and, after the last pass's tally, places the
/// cut of a split whose tiles' matches all fitted their slots: a resolved one, and with kDecideTies (the selection
/// after the pass, in a kernel of its own) also one whose ties need their weights.
template <RadixPass kPass, bool kDecideTies>
__device__ __forceinline__ void selectPassDigit(const OrbLevel& level, OrbSplit& split, const PassDigits& digits,
                                                const std::uint32_t (&binCounts)[kBinsPerThread],
                                                const std::uint64_t (&binWeights)[kBinsPerThread], bool useCounts,
                                                bool useWeights) {
    // Work balance's last pass: the sums below, through L2 where other tiles added to them; otherwise the count the
    // passes before left.
    const bool sumsBelow = useWeights && kPass != RadixPass::Digit;
    const std::uint32_t lessBefore = sumsBelow ? __ldcg(&split.lessCount) : split.lessCount;
    if (level.rootPassSumsWeights && useWeights && digits.pass == int(split.firstPass))
        sumRootBins(level, split, binWeights);
    selectDigit(split, binCounts, binWeights, digits.shift, useCounts, useWeights, lessBefore,
                level.selectionsEndAtBinEdges());
    // A counting pass before the last that left the split open: the last pass sums its tiles' bodies below again.
    if (sumsBelow && digits.shift > 0 && threadIdx.x == 0 && split.done == 0)
        split.lessCount = 0;
    // Thread 0 wrote the split last, or waited at selectDigit's barrier for the thread that did.
    if (kPass == RadixPass::FinalDigit && threadIdx.x == 0 && split.done != 0 && split.resolved == 0)
        noteTiesToOrder(level, split);
    if constexpr (kPass == RadixPass::FinalDigitAndTally) {
        __syncthreads(); // the selection's last writes to the split come from one thread
        if ((kDecideTies || split.resolved != 0) && __ldcg(&split.matchOverflow) == 0)
            finishSelectedSplit<kDecideTies>(level, split, digits.lowestMatch());
    }
}

/// Whether a split takes part in the level's pass `pass` (its own passes, but the first one where its parent's scatter
/// took it).
__device__ __forceinline__ bool selectsInPass(const OrbSplit& split, int pass) {
    return split.copyOnly == 0 && std::uint32_t(pass) >= split.firstPass &&
           !(split.preselected != 0 && std::uint32_t(pass) == split.firstPass);
}

// Per body of a split still selecting: 4 bytes read (+ 4 of weight), one shared atomic or fewer; per tile, at most one
// global atomic per non-empty bin into the cell's bins. The last tile of a cell (or the only one) selects the digit, or
// with kSelectAfter orbRadixSelectKernel after the pass, whose boundary orders every tile's bins before it, instead of
// the last tile, which every tile fenced and counted itself in to find. kWeights: compiled for work balance (the pass
// is issue-bound, so count balance gets an instance without any weight arithmetic; the work instance still falls back
// to counts when the weights vanish). kPass: see RadixPass; with the tally, the pass of the final digit counts each
// tile against the digits fixed before it (MatchTally), so that the selecting block can write the scatter's offsets,
// the cut and the children (finishSelectedSplit) once the digit is known.
template <bool kWeights, RadixPass kPass, bool kSelectAfter>
__device__ __forceinline__ void radixPass(const OrbLevel& level, int pass, std::uint32_t tileIndex) {
    constexpr bool kTally = kPass == RadixPass::FinalDigitAndTally;
    __shared__ alignas(8) std::uint32_t counts[kOrbRadixBins]; // read as bin pairs when flushed to the cell's bins
    __shared__ MatchTally tally;
    __shared__ std::uint32_t weightLow[kWeights ? kOrbRadixBins : 1], weightHigh[kWeights ? kOrbRadixBins : 1];
    const SplitWeightBins weights{weightLow, weightHigh};
    // Pass 0 follows the level's layout, which places the tiles (so does pass 1 where the level launches no pass 0,
    // OrbLevel::guessesFirstPasses); later passes find their tile and load its bodies while the pass before still
    // finishes (dependent launch): the layout and the bodies are older than that pass.
    if (pass == 0 || (pass == 1 && level.leavesOutFirstPass()))
        waitForPreviousKernel();
    const int splitIndex = findSplit(level.splits, level.splitCount, tileIndex);
    OrbSplit* split = splitIndex < 0 ? nullptr : &level.splits[splitIndex];
    const bool selecting = split != nullptr && selectsInPass(*split, pass);
    const bool useWeights = kWeights && weighted(level);
    const bool useCounts = !useWeights || kPass != RadixPass::Digit;
    float coordinates[kRowsPerWarp], rowWeights[kRowsPerWarp];
    Tile tile{};
    if (selecting) {
        for (int k = 0; k < kBinsPerThread; ++k) {
            if (useCounts)
                counts[threadIdx.x + k * kOrbTileThreads] = 0;
            if (useWeights)
                weights.clear(threadIdx.x + k * kOrbTileThreads);
        }
        tile = tileOf(*split, tileIndex);
        // All loads first: the ballots and atomics between rows would otherwise serialise one memory latency per row.
        loadTileRows<kWeights>(tile, level.from.coordinate[split->axis], level.from.weight, coordinates, rowWeights);
    }
    waitForPreviousKernel();
    allowNextKernel();
    if (!selecting || split->done != 0)
        return;
    const PassDigits digits(*split, pass);
    if (kTally && threadIdx.x == 0)
        tally.matches = 0;
    __syncthreads();
    const int narrowShift = useWeights ? level.state->narrowShift : -1;
    const NarrowUnits units = narrowShift >= 0 ? narrowUnits(*level.state) : kFixedPointUnits;
    histogramTile<kWeights, kPass>(level, *split, tile, coordinates, rowWeights, useWeights, narrowShift, units, digits,
                                   counts, weights, tally);
    __syncthreads();
    if (kTally && threadIdx.x == 0)
        publishTally(level, *split, tileIndex, tally);
    // Work balance, last pass: the cell's bodies below the digits fixed so far, summed over its tiles.
    const bool sumsBelow = useWeights && kPass != RadixPass::Digit;
    if (sumsBelow && threadIdx.x == 0) {
        const std::uint32_t below = tally.tileBelow();
        if (below > 0)
            atomicAdd(&split->lessCount, below);
    }
    if (kSelectAfter && split->tileCount > 1) {
        addTileToCellBins(level, *split, counts, weights, useCounts, useWeights, units.shift);
        return;
    }
    // Narrow weights counted where the scatter looks back (no tally): one word per bin.
    const bool packed = kPass == RadixPass::FinalDigit && level.packsCountsWithWeights() && narrowShift >= 0;
    std::uint32_t binCounts[kBinsPerThread];
    std::uint64_t binWeights[kBinsPerThread];
    if (!cellBins(level, *split, counts, weights, useCounts, useWeights, packed, units.shift, binCounts, binWeights))
        return;
    if (sumsBelow)
        __syncthreads(); // a cell of one tile: thread 0's sum above, which cellBins did not wait for
    selectPassDigit<kPass, false>(level, *split, digits, binCounts, binWeights, useCounts, useWeights);
}

template <bool kWeights, RadixPass kPass, bool kSelectAfter>
__global__ void orbRadixPassKernel(OrbLevel level, int pass) {
    radixPass<kWeights, kPass, kSelectAfter>(level, pass, blockIdx.x);
}

/// A pass that most splits skip (the first pass below the root, whose digits the scatter above counted): its blocks
/// walk chunks of tiles, stepping over the splits that skip it (forEachTileOfChunk), and each cell's last tile selects,
/// also where the tiles exceed a wave: a kernel after the pass would cost a boundary for the few splits that take it.
/// The walk's loop takes the work instance to 107 registers (64 one tile per block), which matters only for them.
template <bool kWeights> __global__ void orbChunkedRadixPassKernel(OrbLevel level, int pass) {
    waitForPreviousKernel();
    allowNextKernel();
    forEachTileOfChunk(
        level, [pass](const OrbSplit& split) { return !selectsInPass(split, pass) || split.done != 0; },
        [&](int, std::uint32_t tile) { radixPass<kWeights, RadixPass::Digit, false>(level, pass, tile); });
}

/// Work balance's last pass with the tally held to 64 registers (4 tiles per multiprocessor): the digits measured from
/// each cell's lower side took it to 71 (3 tiles). The tally runs where the levels span several waves, so its cells
/// select after it.
__global__ void __launch_bounds__(kOrbTileThreads, 4) orbWorkTallyPassKernel(OrbLevel level, int pass) {
    radixPass<true, RadixPass::FinalDigitAndTally, true>(level, pass, blockIdx.x);
}

/// One block per split of the level, after a pass whose cells of several tiles left their selection to it.
template <bool kWeights, RadixPass kPass> __global__ void orbRadixSelectKernel(OrbLevel level, int pass) {
    waitForPreviousKernel(); // the bins, sums and tallies come from the pass
    allowNextKernel();
    OrbSplit& split = level.splits[blockIdx.x];
    if (!selectsInPass(split, pass) || split.done != 0 || split.tileCount <= 1)
        return;
    const bool useWeights = kWeights && weighted(level);
    const bool useCounts = !useWeights || kPass != RadixPass::Digit;
    std::uint32_t binCounts[kBinsPerThread];
    std::uint64_t binWeights[kBinsPerThread];
    takeCellBins(level, split.binSlot, useCounts, useWeights, binCounts, binWeights);
    selectPassDigit<kPass, kWeights>(level, split, PassDigits(split, pass), binCounts, binWeights, useCounts,
                                     useWeights);
}

using RadixPassKernel = void (*)(OrbLevel, int);

/// The kernels that run `pass` of every level: the pass, and where its cells select after it (tally: the levels span
/// several waves, where the kernel boundaries cost little), the selection.
struct RadixPassKernels {
    RadixPassKernel pass, select;
};

template <bool kWeights> RadixPassKernels radixPassKernels(int pass, bool tally, bool chunked) {
    if (chunked) // its few splits' last tiles select, so no kernel runs after it
        return {orbChunkedRadixPassKernel<kWeights>, nullptr};
    if (pass + 1 < int(kOrbRadixPasses)) {
        if (tally)
            return {orbRadixPassKernel<kWeights, RadixPass::Digit, true>,
                    orbRadixSelectKernel<kWeights, RadixPass::Digit>};
        // Where the scatter looks back, a selection may end at a bin's edge, which under work balance needs the
        // counts: the passes after the first count as the last does.
        if constexpr (kWeights)
            if (pass > 0)
                return {orbRadixPassKernel<true, RadixPass::FinalDigit, false>, nullptr};
        return {orbRadixPassKernel<kWeights, RadixPass::Digit, false>, nullptr};
    }
    if (tally) {
        if constexpr (kWeights)
            return {orbWorkTallyPassKernel, orbRadixSelectKernel<true, RadixPass::FinalDigitAndTally>};
        else
            return {orbRadixPassKernel<false, RadixPass::FinalDigitAndTally, true>,
                    orbRadixSelectKernel<false, RadixPass::FinalDigitAndTally>};
    }
    if constexpr (kWeights)
        return {orbRadixPassKernel<true, RadixPass::FinalDigit, false>, nullptr};
    else // count balance: the last pass counts like the others
        return {orbRadixPassKernel<false, RadixPass::Digit, false>, nullptr};
}

} // namespace

void launchOrbFindPivots(const OrbLevel& level, OrbCutFinder finder, cudaStream_t stream) {
    if (finder == OrbCutFinder::RadixSelect) {
        for (int pass = 0; pass < int(kOrbRadixPasses); ++pass) {
            if (pass == 0 && level.leavesOutFirstPass())
                continue; // the scatter above is expected to have taken every first pass this level needs
            const bool chunked = pass == 0 && level.firstPassesTaken;
            const RadixPassKernels kernels = level.workBalance
                                                 ? radixPassKernels<true>(pass, level.tallyLastPass, chunked)
                                                 : radixPassKernels<false>(pass, level.tallyLastPass, chunked);
            const std::uint32_t blocks = chunked ? chunkedTileBlocks(level, kernels.pass) : level.gridTiles;
            launchDependent("orbRadixPassKernel", kernels.pass, blocks, kOrbTileThreads, stream, level, pass);
            if (kernels.select != nullptr)
                launchDependent("orbRadixSelectKernel", kernels.select, level.splitCount, kOrbTileThreads, stream,
                                level, pass);
        }
        return;
    }
    launchOrbBisectionRounds(level, stream);
}

} // namespace gravlab
