// Walk groups of the CPU octree (see TreeWalkGroups.hpp). Serial: one pass over the cells above the group size, well
// under a millisecond at 1M bodies next to the walk.
#include "tree/TreeWalkGroups.hpp"

#include "tree/OctantSpan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// Which octant of its parent a child is (x, y, z bits as in the Morton key: x highest).
unsigned octantOf(const OctreeCell& parent, const OctreeCell& child) {
    return (child.centerX > parent.centerX ? 4u : 0u) | (child.centerY > parent.centerY ? 2u : 0u) |
           (child.centerZ > parent.centerZ ? 1u : 0u);
}

class GroupPacker {
public:
    GroupPacker(const OctreeCpu& tree, std::uint32_t capacity, std::vector<TreeWalkGroup>& out)
        : m_cells(tree.cells()), m_capacity(capacity), m_out(out) {}

    /// Packs the children of cell, which holds more than the capacity.
    void packChildren(const OctreeCell& cell) {
        if (cell.isLeaf()) { // only at the deepest level: coincident bodies, cut into chunks
            for (std::uint32_t offset = 0; offset < cell.bodyCount; offset += m_capacity)
                m_out.push_back({cell.firstBody + offset, std::min(m_capacity, cell.bodyCount - offset)});
            return;
        }
        unsigned crowded = 0;
        for (std::int32_t c = cell.firstChild; c < cell.firstChild + cell.childCount; ++c)
            if (m_cells[std::size_t(c)].bodyCount > m_capacity)
                crowded |= 1u << octantOf(cell, m_cells[std::size_t(c)]);
        Pack pack;
        for (std::int32_t c = cell.firstChild; c < cell.firstChild + cell.childCount; ++c) {
            const OctreeCell& child = m_cells[std::size_t(c)];
            if (child.bodyCount > m_capacity) {
                flush(pack);
                packChildren(child);
                continue;
            }
            const unsigned octant = 1u << octantOf(cell, child);
            if (pack.bodyCount + child.bodyCount > m_capacity || (octantsSpanned(pack.octants | octant) & crowded) != 0)
                flush(pack);
            if (pack.bodyCount == 0)
                pack.firstBody = child.firstBody;
            pack.bodyCount += child.bodyCount;
            pack.octants |= octant;
        }
        flush(pack);
    }

private:
    struct Pack {
        std::uint32_t firstBody = 0, bodyCount = 0;
        unsigned octants = 0;
    };

    void flush(Pack& pack) {
        if (pack.bodyCount != 0)
            m_out.push_back({pack.firstBody, pack.bodyCount});
        pack = Pack{};
    }

    const std::vector<OctreeCell>& m_cells;
    std::uint32_t m_capacity;
    std::vector<TreeWalkGroup>& m_out;
};

} // namespace

void formTreeWalkGroups(const OctreeCpu& tree, std::uint32_t capacity, std::vector<TreeWalkGroup>& out) {
    if (capacity < 1)
        throw std::invalid_argument("tree walk groups: capacity " + std::to_string(capacity) + " must be at least 1");
    out.clear();
    if (tree.empty())
        return;
    const OctreeCell& root = tree.cells().front();
    if (root.bodyCount <= capacity)
        out.push_back({root.firstBody, root.bodyCount});
    else
        GroupPacker(tree, capacity, out).packChildren(root);
}

} // namespace gravlab
