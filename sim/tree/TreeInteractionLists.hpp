#pragma once
// What one walk group interacts with: accepted cells (multipoles) and single sources (bodies of opened leaves, and
// cells whose monopole suffices), as structures of arrays ready for the SIMD loops of TreeListsSimd.
//
// Design note: the walk decides and appends (branchy, scalar); the evaluation streams the arrays (TreeListsSimd.cpp).
// Both lists are padded with massless sources to a multiple of kInteractionListPadding entries, the widest vector of
// floats any dispatched target uses (AVX-512: 16), so the SIMD loops need no tail: a massless source at a far point
// adds exactly zero (its terms are products with its mass and its zero moments; the far point keeps r^2 > 0 even
// without softening). Arrays only grow; one instance per thread is reused from group to group.
#include "tree/OctreeCpu.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace gravlab {

inline constexpr std::size_t kInteractionListPadding = 16;

/// Accepted cells, count a multiple of kInteractionListPadding.
struct CellListView {
    const float *mass, *comX, *comY, *comZ, *qxx, *qyy, *qzz, *qxy, *qxz, *qyz, *secondMoment;
    std::size_t count;
};

/// Point sources (position, mass), count a multiple of kInteractionListPadding.
struct SourceListView {
    const float *x, *y, *z, *mass;
    std::size_t count;
};

class InteractionLists {
public:
    void clear() { m_cellCount = m_sourceCount = 0; }
    /// Interactions appended since clear(): one per accepted cell (expanded or as a monopole) and per body.
    std::size_t interactionCount() const { return m_cellCount + m_sourceCount; }

    void addCell(const CellMultipole& cell) {
        if (m_cellCount == m_cell[0].size())
            growCells(m_cellCount + 1);
        const std::size_t k = m_cellCount++;
        m_cell[0][k] = cell.mass;
        m_cell[1][k] = cell.comX;
        m_cell[2][k] = cell.comY;
        m_cell[3][k] = cell.comZ;
        m_cell[4][k] = cell.qxx;
        m_cell[5][k] = cell.qyy;
        m_cell[6][k] = cell.qzz;
        m_cell[7][k] = cell.qxy;
        m_cell[8][k] = cell.qxz;
        m_cell[9][k] = cell.qyz;
        m_cell[10][k] = cell.secondMoment;
    }
    void addSource(float x, float y, float z, float mass) {
        if (m_sourceCount == m_source[0].size())
            growSources(m_sourceCount + 1);
        const std::size_t k = m_sourceCount++;
        m_source[0][k] = x;
        m_source[1][k] = y;
        m_source[2][k] = z;
        m_source[3][k] = mass;
    }
    /// Tree-order bodies [first, first + count). Plain loops: leaves hold a few bodies, too few for memmove's setup.
    void addBodies(const TreeOrderedBodies& bodies, std::uint32_t first, std::uint32_t count) {
        if (m_sourceCount + count > m_source[0].size())
            growSources(m_sourceCount + count);
        float *x = m_source[0].data() + m_sourceCount, *y = m_source[1].data() + m_sourceCount;
        float *z = m_source[2].data() + m_sourceCount, *mass = m_source[3].data() + m_sourceCount;
        for (std::uint32_t k = 0; k < count; ++k) {
            x[k] = bodies.x[first + k];
            y[k] = bodies.y[first + k];
            z[k] = bodies.z[first + k];
            mass[k] = bodies.mass[first + k];
        }
        m_sourceCount += count;
    }

    /// The lists, padded (see the design note); further appends go after the real entries again.
    CellListView cells();
    SourceListView sources();

private:
    void growCells(std::size_t needed);
    void growSources(std::size_t needed);

    /// mass, com x y z, qxx qyy qzz qxy qxz qyz, second moment
    std::array<std::vector<float>, 11> m_cell;
    /// x, y, z, mass
    std::array<std::vector<float>, 4> m_source;
    std::size_t m_cellCount = 0, m_sourceCount = 0;
};

} // namespace gravlab
