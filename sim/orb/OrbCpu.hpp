#pragma once
// The CPU ORB: the reference the GPU ORB is checked against, and the fallback when no device is present.
//
// Design note: the algorithm, the cell layout and the balance targets are those of Orb.hpp. The build walks the tree
// one level at a time; all cells of a level are split together (OpenMP over the cells, each cell's work is
// independent because its bodies are a private index range), then their children form the next level. A split:
//   1. writes one (coordinate along the cut axis, body index) key per body of the cell into a scratch array
//      (8 bytes per body, not a second copy of the 32 bytes of body state);
//   2. selects the split rank k: under count balance k is known from the indices alone and std::nth_element puts the
//      k-th key in place (expected O(n)); under work balance a weighted quickselect (nth_element on halving ranges,
//      summing the weight below the midpoint) finds the k at which the cumulative weight crosses its target;
//   3. partitions the body arrays around the k-th key stably (left bodies, then right ones, each in index order),
//      gathering one per-body array at a time through a scratch of one float per body of the cell. Stability matters:
//      the next level breaks ties by the index after this cut, so an unstable pass (Lomuto) would choose different
//      bodies on coincident planes than the stable GPU partition (OrbGpu) does.
// The top levels hold few cells and so use few threads; this is a reference, the GPU build is the fast path.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Orb.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

class OrbCpu {
public:
    /// Splits the bodies into domainCount domains, permuting the body arrays in place so that each cell's bodies are
    /// contiguous. weights empty: count balance. Otherwise one weight per body (work per body, finite, >= 0, with a
    /// positive sum): work balance, and the weights are permuted together with their bodies.
    /// Throws InvalidParameterError (field "orb-domains") when domainCount lies outside [1, N]; std::invalid_argument
    /// when N is 0 or above 2^32 - 1, the body arrays differ in length, a position is not finite, or the weights are
    /// of the wrong length, negative, not finite or all zero. On a throw the bodies are left untouched.
    void build(Bodies& bodies, std::uint32_t domainCount, std::span<float> weights = {});

    /// Breadth first: the root is cell 0, each level is a contiguous range (see levelBegin()).
    const std::vector<OrbCell>& cells() const { return m_cells; }
    /// levelBegin()[d] is the index of the first cell of depth d; the last entry is cells().size().
    const std::vector<std::size_t>& levelBegin() const { return m_levelBegin; }
    std::uint32_t domainCount() const { return m_cells.empty() ? 0 : m_cells.front().domainCount; }

    /// Domain index of each body, indexed like the bodies after build() (leaves numbered left to right).
    void domainOfBodies(std::vector<std::uint32_t>& out) const;
    /// Memory imbalance of the leaves, and work imbalance under these weights (indexed like the bodies after build();
    /// empty: every body weighs 1). Throws std::invalid_argument for weights of the wrong length or a zero sum.
    OrbImbalance imbalance(std::span<const float> weights = {}) const;

private:
    struct AxisKey {
        float coordinate;
        std::uint32_t index;
    };

    void splitLevel(Bodies& bodies, std::span<float> weights, std::size_t levelStart, std::size_t levelEnd);
    void splitCell(Bodies& bodies, std::span<float> weights, std::size_t cellIndex);
    std::uint32_t selectSplitRank(const OrbCell& cell, std::span<const float> weights, std::size_t cellIndex);

    std::vector<OrbCell> m_cells;
    std::vector<std::size_t> m_levelBegin;
    std::vector<AxisKey> m_keys;        ///< scratch: the keys of every cell of the level being split
    std::vector<double> m_weightBefore; ///< per cell, work balance: total weight of the bodies before its begin
    double m_totalWeight = 0;           ///< work balance: the sum of all weights
    std::uint64_t m_bodyCount = 0;
};

} // namespace gravlab
