// Barnes-Hut force walk on the CPU (see TreeForcesCpu.hpp).
//
// Design note: a body's walk only decides; it appends the multipoles of accepted cells and the bodies of opened
// leaves to per-thread interaction lists (structures of arrays), and two loops over the lists then evaluate
// TreeMath's expressions, which the compiler vectorises (the decisions are branchy and scalar, the arithmetic is
// not; measured ~1.2x faster than evaluating during the walk, where the walk's decisions now take ~80% of the time).
// Each body's sums run in one thread over lists in walk order, so the result does not depend on the thread count.
// The walk itself is TreeWalkCpu.hpp's, shared with the potential walk. Work per visited cell: ~8 flops and 20 bytes
// for the test; per accepted cell ~50 flops (TreeMath's quadrupole term) and 40 bytes copied into the list; per body of
// an opened leaf 20 flops and 16 bytes copied.
#include "tree/TreeForcesCpu.hpp"

#include "core/Parallel.hpp"
#include "tree/TreeWalkCpu.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// What one body's walk accepted, as structures of arrays, reused from body to body within a thread (capacities
/// only grow).
class InteractionLists {
public:
    void clear() { m_cellCount = m_bodyCount = 0; }
    /// Interactions the lists hold: one per accepted cell and per body.
    std::size_t interactionCount() const { return m_cellCount + m_bodyCount; }

    void addCell(const CellMultipole& cell) {
        if (m_cellCount == m_cellMass.size())
            for (std::vector<float>* component : cellComponents())
                component->resize(std::max<std::size_t>(64, 2 * m_cellCount));
        const std::size_t k = m_cellCount++;
        m_cellMass[k] = cell.mass;
        m_comX[k] = cell.comX;
        m_comY[k] = cell.comY;
        m_comZ[k] = cell.comZ;
        m_qxx[k] = cell.qxx;
        m_qyy[k] = cell.qyy;
        m_qzz[k] = cell.qzz;
        m_qxy[k] = cell.qxy;
        m_qxz[k] = cell.qxz;
        m_qyz[k] = cell.qyz;
        m_secondMoment[k] = cell.secondMoment;
    }

    void addBodies(const TreeOrderedBodies& bodies, std::uint32_t first, std::uint32_t count) {
        if (m_bodyCount + count > m_bodyMass.size())
            for (std::vector<float>* component : {&m_bodyX, &m_bodyY, &m_bodyZ, &m_bodyMass})
                component->resize(std::max<std::size_t>(256, 2 * (m_bodyCount + count)));
        std::copy_n(bodies.x.begin() + first, count, m_bodyX.begin() + std::ptrdiff_t(m_bodyCount));
        std::copy_n(bodies.y.begin() + first, count, m_bodyY.begin() + std::ptrdiff_t(m_bodyCount));
        std::copy_n(bodies.z.begin() + first, count, m_bodyZ.begin() + std::ptrdiff_t(m_bodyCount));
        std::copy_n(bodies.mass.begin() + first, count, m_bodyMass.begin() + std::ptrdiff_t(m_bodyCount));
        m_bodyCount += count;
    }

    /// Acceleration (without G) on a target at (x, y, z) from everything in the lists.
    template <MultipoleOrder order> std::array<float, 3> evaluate(float x, float y, float z, float eps2) const {
        float ax = 0, ay = 0, az = 0;
        const float *mass = m_cellMass.data(), *comX = m_comX.data(), *comY = m_comY.data(), *comZ = m_comZ.data();
        const float *qxx = m_qxx.data(), *qyy = m_qyy.data(), *qzz = m_qzz.data();
        const float *qxy = m_qxy.data(), *qxz = m_qxz.data(), *qyz = m_qyz.data();
        const float* secondMoment = m_secondMoment.data();
#pragma omp simd reduction(+ : ax, ay, az)
        for (std::size_t k = 0; k < m_cellCount; ++k) {
            if constexpr (order == MultipoleOrder::Quadrupole) {
                const CellMultipole cell{mass[k], comX[k], comY[k], comZ[k], qxx[k],         qyy[k],
                                         qzz[k],  qxy[k],  qxz[k],  qyz[k],  secondMoment[k]};
                addMultipoleAcceleration(x - comX[k], y - comY[k], z - comZ[k], cell, eps2, ax, ay, az);
            } else {
                addBodyAcceleration(x - comX[k], y - comY[k], z - comZ[k], mass[k], eps2, ax, ay, az);
            }
        }
        const float *bodyX = m_bodyX.data(), *bodyY = m_bodyY.data(), *bodyZ = m_bodyZ.data();
        const float* bodyMass = m_bodyMass.data();
#pragma omp simd reduction(+ : ax, ay, az)
        for (std::size_t k = 0; k < m_bodyCount; ++k)
            addBodyAcceleration(x - bodyX[k], y - bodyY[k], z - bodyZ[k], bodyMass[k], eps2, ax, ay, az);
        return {ax, ay, az};
    }

private:
    std::array<std::vector<float>*, 11> cellComponents() {
        return {&m_cellMass, &m_comX, &m_comY, &m_comZ, &m_qxx,         &m_qyy,
                &m_qzz,      &m_qxy,  &m_qxz,  &m_qyz,  &m_secondMoment};
    }

    std::vector<float> m_cellMass, m_comX, m_comY, m_comZ, m_qxx, m_qyy, m_qzz, m_qxy, m_qxz, m_qyz, m_secondMoment;
    std::vector<float> m_bodyX, m_bodyY, m_bodyZ, m_bodyMass;
    std::size_t m_cellCount = 0, m_bodyCount = 0;
};

/// Fills lists with what a target at (x, y, z) interacts with under TreeMath's opening criterion.
void walkFromRoot(const OctreeCpu& tree, float x, float y, float z, RelativeOpening relative, InteractionLists& lists) {
    const TreeOrderedBodies& bodies = tree.orderedBodies();
    lists.clear();
    walkTreeFrom(
        tree, x, y, z, [&lists](const CellMultipole& multipole, float, float, float) { lists.addCell(multipole); },
        [&lists, &bodies](const OctreeCell& cell) { lists.addBodies(bodies, cell.firstBody, cell.bodyCount); },
        relative);
}

/// Per tree slot, the relative criterion's inverse tolerance from the body's previous acceleration (read before any
/// result is written, so the output may be the previous accelerations' array); empty under the geometric criterion.
std::vector<float> inverseTolerances(const OctreeCpu& tree, const TreeForceParams& params) {
    std::vector<float> inverse;
    if (params.previousAccelerations == nullptr)
        return inverse;
    const Vec3Arrays<float>& previous = *params.previousAccelerations;
    if (previous.size() != tree.bodyCount())
        throw std::invalid_argument("tree forces: " + std::to_string(previous.size()) + " previous accelerations for " +
                                    std::to_string(tree.bodyCount()) + " bodies");
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    inverse.resize(tree.bodyCount());
    for (std::size_t slot = 0; slot < inverse.size(); ++slot) {
        const std::uint32_t body = bodyOrder[slot];
        const float magnitude = std::hypot(previous.x[body], previous.y[body], previous.z[body]);
        inverse[slot] =
            relativeInverseTolerance(float(params.gravitationalConstant), params.forceAccuracy, magnitude);
    }
    return inverse;
}

/// Walks for the bodies in tree slots slots[0..count) (every slot, in order, when slots is null).
template <MultipoleOrder order>
void walkSlots(const OctreeCpu& tree, const TreeForceParams& params, const std::uint32_t* slots, std::int64_t count,
               Vec3Arrays<float>& out, float* work) {
    const TreeOrderedBodies& bodies = tree.orderedBodies();
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    const auto eps2 = float(params.softeningLength * params.softeningLength);
    const auto gravitationalConstant = float(params.gravitationalConstant);
    const std::vector<float> inverseTolerance = inverseTolerances(tree, params);
#pragma omp parallel if (parallel : count >= kMinBodiesForParallelSampling / 4)
    {
        InteractionLists lists;
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t k = 0; k < count; ++k) {
            const std::size_t slot = slots != nullptr ? slots[k] : std::size_t(k);
            const RelativeOpening relative{inverseTolerance.empty() ? 0.0f : inverseTolerance[slot], eps2};
            walkFromRoot(tree, bodies.x[slot], bodies.y[slot], bodies.z[slot], relative, lists);
            const auto [ax, ay, az] = lists.evaluate<order>(bodies.x[slot], bodies.y[slot], bodies.z[slot], eps2);
            const std::uint32_t body = bodyOrder[slot];
            out.x[body] = gravitationalConstant * ax;
            out.y[body] = gravitationalConstant * ay;
            out.z[body] = gravitationalConstant * az;
            if (work != nullptr)
                work[body] = float(lists.interactionCount());
        }
    }
}

void walkSlots(const OctreeCpu& tree, const TreeForceParams& params, const std::uint32_t* slots, std::int64_t count,
               Vec3Arrays<float>& out, float* work) {
    if (tree.multipoles().size() != tree.cells().size())
        throw std::logic_error("tree forces: the octree has not been summarized since it was built");
    if (params.multipoleOrder == MultipoleOrder::Quadrupole)
        walkSlots<MultipoleOrder::Quadrupole>(tree, params, slots, count, out, work);
    else
        walkSlots<MultipoleOrder::Monopole>(tree, params, slots, count, out, work);
}

} // namespace

void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params, Vec3Arrays<float>& out,
                                 std::vector<float>* work) {
    out.resize(tree.bodyCount());
    if (work != nullptr)
        work->resize(tree.bodyCount());
    walkSlots(tree, params, nullptr, std::int64_t(tree.bodyCount()), out, work != nullptr ? work->data() : nullptr);
}

void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params,
                                 std::span<const std::uint32_t> targets, Vec3Arrays<float>& out,
                                 std::vector<float>& work) {
    const std::size_t count = tree.bodyCount();
    if (out.size() != count || work.size() != count)
        throw std::invalid_argument("tree forces: " + std::to_string(out.size()) + " accelerations and " +
                                    std::to_string(work.size()) + " work weights for " + std::to_string(count) +
                                    " bodies");
    std::vector<std::uint8_t> listed(count, 0);
    for (const std::uint32_t target : targets) {
        if (target >= count)
            throw std::out_of_range("tree forces: target " + std::to_string(target) + " is not one of the " +
                                    std::to_string(count) + " bodies");
        listed[target] = 1;
    }
    // In tree order, so that neighbouring walks still share their cells in cache.
    std::vector<std::uint32_t> slots;
    slots.reserve(targets.size());
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    for (std::uint32_t slot = 0; slot < count; ++slot)
        if (listed[bodyOrder[slot]] != 0)
            slots.push_back(slot);
    walkSlots(tree, params, slots.data(), std::int64_t(slots.size()), out, work.data());
}

} // namespace gravlab
