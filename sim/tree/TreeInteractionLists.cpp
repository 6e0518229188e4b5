// Interaction lists of the CPU tree walk (see TreeInteractionLists.hpp).
#include "tree/TreeInteractionLists.hpp"

#include <algorithm>

namespace gravlab {
namespace {

/// Where padding sources sit: far from any body (positions are finite floats, and a tree whose bodies reach 1e30 has
/// other problems), near enough that its squared distance stays finite.
constexpr float kPaddingPosition = 1e15f;

std::size_t paddedCount(std::size_t count) {
    return (count + kInteractionListPadding - 1) / kInteractionListPadding * kInteractionListPadding;
}

template <std::size_t kComponents> void grow(std::array<std::vector<float>, kComponents>& arrays, std::size_t needed) {
    const std::size_t capacity = paddedCount(std::max<std::size_t>({256, needed, 2 * arrays[0].size()}));
    for (std::vector<float>& component : arrays)
        component.resize(capacity);
}

} // namespace

void InteractionLists::growCells(std::size_t needed) {
    grow(m_cell, needed);
}

void InteractionLists::growSources(std::size_t needed) {
    grow(m_source, needed);
}

CellListView InteractionLists::cells() {
    const std::size_t padded = paddedCount(m_cellCount);
    if (padded > m_cell[0].size())
        growCells(padded);
    for (std::size_t component = 0; component < m_cell.size(); ++component) {
        const bool position = component >= 1 && component <= 3;
        std::fill(m_cell[component].begin() + std::ptrdiff_t(m_cellCount),
                  m_cell[component].begin() + std::ptrdiff_t(padded), position ? kPaddingPosition : 0.0f);
    }
    return {m_cell[0].data(), m_cell[1].data(), m_cell[2].data(), m_cell[3].data(), m_cell[4].data(),  m_cell[5].data(),
            m_cell[6].data(), m_cell[7].data(), m_cell[8].data(), m_cell[9].data(), m_cell[10].data(), padded};
}

SourceListView InteractionLists::sources() {
    const std::size_t padded = paddedCount(m_sourceCount);
    if (padded > m_source[0].size())
        growSources(padded);
    for (std::size_t component = 0; component < m_source.size(); ++component)
        std::fill(m_source[component].begin() + std::ptrdiff_t(m_sourceCount),
                  m_source[component].begin() + std::ptrdiff_t(padded), component < 3 ? kPaddingPosition : 0.0f);
    return {m_source[0].data(), m_source[1].data(), m_source[2].data(), m_source[3].data(), padded};
}

} // namespace gravlab
