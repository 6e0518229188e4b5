#pragma once
// The CPU Barnes-Hut octree: bounding cube, build from sorted Morton keys, multipole summary (OpenMP).
//
// Design note:
//   Bounding cube: centred on the bodies' bounding box, half size = the largest half-extent times (1 + kMargin), so
//   no body sits on the outer faces; a point-like set (N = 1, all bodies coincident) gets a small absolute half size.
//   Build (the Morton-order build of Warren & Salmon 1993): each body gets a 63-bit Morton key (21 bits per axis) of
//   its position in the cube; keys are sorted with the body index as tie-break, so the order, and with it the whole
//   tree, is a pure function of the input. A cell is a run of consecutive sorted bodies that share a key prefix; it
//   splits into its non-empty octants (located by binary search on the next three key bits) while it holds more than
//   the leaf capacity and is shallower than kOctreeMaxDepth = 21, the key's resolution. That cap is what keeps
//   coincident bodies from recursing forever: they end up together in one leaf at depth 21.
//   Cells are stored breadth-first, so every level is a contiguous range, children of a cell are contiguous and
//   parents come before children; the depth-ordered list is what the overlay wants (shallowest first) and the summary
//   walks it level by level from the deepest.
//   Summary: mass, centre of mass and the traceless quadrupole about it (TreeMath.hpp's definition), computed in fp64
//   (leaves from their bodies in two passes, inner cells from their children by the parallel-axis theorem) and stored
//   as float; each cell also gets the squared opening radius of TreeMath's criterion for the given theta (capped at
//   2 / sqrt(3), see kLargestSelfSafeOpeningAngle in TreeMath.hpp).
//   Data layout: bodies are copied into tree order (positions and masses, structure of arrays) so that a leaf's bodies
//   are contiguous for the force walk; bodyOrder() maps a tree-order slot back to the caller's body index.
#include "tree/TreeMath.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

/// Deepest level of the CPU octree: 21 levels of 3 key bits fill a 63-bit Morton key.
inline constexpr int kOctreeMaxDepth = 21;
/// Bodies a leaf may hold before it splits (leaves at kOctreeMaxDepth may hold more).
inline constexpr int kOctreeLeafCapacity = 16;

/// One cubic cell; its bodies are tree-order slots [firstBody, firstBody + bodyCount).
struct OctreeCell {
    float centerX, centerY, centerZ; ///< N-body length units
    float halfSize;                  ///< half the side
    std::int32_t depth;              ///< 0 for the root
    std::int32_t firstChild;         ///< index of the first of childCount contiguous children; -1 for a leaf
    std::int32_t childCount;         ///< 0 for a leaf, else 1 to 8 (empty octants get no cell)
    std::uint32_t firstBody;
    std::uint32_t bodyCount;

    bool isLeaf() const { return childCount == 0; }
};

/// Sorted body arrays of the tree (tree order).
struct TreeOrderedBodies {
    std::vector<float> x, y, z, mass;
};

class OctreeCpu {
public:
    /// Builds the tree of these bodies' positions (masses are copied for the summary and the walk). Throws
    /// std::invalid_argument when a position is not finite, the arrays differ in length, or leafCapacity < 1.
    void build(const Bodies& bodies, int leafCapacity = kOctreeLeafCapacity);
    /// Fills the multipoles and the opening radii for openingAngle (theta; TreeMath's openingRadius caps it);
    /// requires build() first.
    void summarize(float openingAngle);

    std::size_t bodyCount() const { return m_order.size(); }
    bool empty() const { return m_cells.empty(); }
    /// Breadth-first: the root is cell 0, each depth is a contiguous range (see levelBegin()).
    const std::vector<OctreeCell>& cells() const { return m_cells; }
    /// levelBegin()[d] is the index of the first cell of depth d; the last entry is cells().size().
    const std::vector<std::size_t>& levelBegin() const { return m_levelBegin; }
    /// Per cell, after summarize().
    const std::vector<CellMultipole>& multipoles() const { return m_multipoles; }
    /// Per cell, after summarize(): openingRadius(side, |com - centre|, theta) squared.
    const std::vector<float>& openingRadiusSquared() const { return m_openingRadiusSquared; }
    /// Per cell, after summarize(): M s^3, the relative criterion's error scale (TreeMath.hpp).
    const std::vector<float>& relativeErrorScales() const { return m_relativeErrorScale; }
    const TreeOrderedBodies& orderedBodies() const { return m_ordered; }
    /// bodyOrder()[slot] is the caller's index of the body in tree-order slot `slot`.
    const std::vector<std::uint32_t>& bodyOrder() const { return m_order; }
    /// The theta the opening radii were computed with (after the cap).
    float openingAngle() const { return m_openingAngle; }

    /// Depth of the leaf holding each body, indexed like the bodies passed to build().
    void leafDepthOfBodies(std::vector<std::uint8_t>& out) const;
    /// Cells matching query, shallowest first (see TreeCellQuery); out is cleared first.
    void collectCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const;

private:
    void sortBodiesByKey(const Bodies& bodies);
    void buildLevels(int leafCapacity);
    void splitCell(std::size_t cellIndex);
    /// The Morton key build() gives a body at this position.
    std::uint64_t keyOf(float x, float y, float z) const;
    void collectLevels(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const;
    void collectPath(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const;

    std::vector<OctreeCell> m_cells;
    std::vector<std::size_t> m_levelBegin;
    std::vector<std::uint64_t> m_sortedKeys;
    std::vector<std::uint32_t> m_order;
    TreeOrderedBodies m_ordered;
    std::vector<CellMultipole> m_multipoles;
    std::vector<float> m_openingRadiusSquared;
    std::vector<float> m_relativeErrorScale;
    float m_openingAngle = 0;
    double m_rootLowX = 0, m_rootLowY = 0, m_rootLowZ = 0; ///< lower corner of the root cube
    double m_rootSide = 0;
};

} // namespace gravlab
