// Tree potentials on the CPU (see TreePotentialCpu.hpp).
#include "tree/TreePotentialCpu.hpp"

#include "core/Parallel.hpp"
#include "tree/TreeWalkCpu.hpp"

#include <stdexcept>

namespace gravlab {
namespace {

/// The potential (without G) at tree slot own, from every other body of the tree.
template <MultipoleOrder order> double potentialAtSlot(const OctreeCpu& tree, std::uint32_t own, float eps2) {
    const TreeOrderedBodies& bodies = tree.orderedBodies();
    const float x = bodies.x[own], y = bodies.y[own], z = bodies.z[own];
    double potential = 0;
    walkTreeFrom(
        tree, x, y, z,
        [&](const CellMultipole& multipole, float dx, float dy, float dz) {
            potential += order == MultipoleOrder::Quadrupole ? multipolePotential(dx, dy, dz, multipole, eps2)
                                                             : bodyPotential(dx, dy, dz, multipole.mass, eps2);
        },
        [&](const OctreeCell& cell) {
            for (std::uint32_t slot = cell.firstBody; slot < cell.firstBody + cell.bodyCount; ++slot)
                if (slot != own)
                    potential += bodyPotential(x - bodies.x[slot], y - bodies.y[slot], z - bodies.z[slot],
                                               bodies.mass[slot], eps2);
        });
    return potential;
}

template <MultipoleOrder order>
void walkEveryBody(const OctreeCpu& tree, const TreeForceParams& params, std::vector<float>& out) {
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    const auto eps2 = float(params.softeningLength * params.softeningLength);
    const auto count = std::int64_t(tree.bodyCount());
#pragma omp parallel for schedule(dynamic, 64) if (parallel : count >= kMinBodiesForParallelSampling / 4)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto slot = std::uint32_t(k);
        out[bodyOrder[slot]] = float(params.gravitationalConstant * potentialAtSlot<order>(tree, slot, eps2));
    }
}

} // namespace

void computeTreePotentialsCpu(const OctreeCpu& tree, const TreeForceParams& params, std::vector<float>& out) {
    if (tree.multipoles().size() != tree.cells().size())
        throw std::logic_error("tree potentials: the octree has not been summarized since it was built");
    out.resize(tree.bodyCount());
    if (params.multipoleOrder == MultipoleOrder::Quadrupole)
        walkEveryBody<MultipoleOrder::Quadrupole>(tree, params, out);
    else
        walkEveryBody<MultipoleOrder::Monopole>(tree, params, out);
}

} // namespace gravlab
