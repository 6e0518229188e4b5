// The CUDA Barnes-Hut solver's host side: buffers, the order of the kernels, the one status read (DeviceTree.hpp).
#include "tree/cuda/DeviceTree.hpp"

#include "device/cuda/DeviceAttributes.hpp"
#include "tree/cuda/TreeKernels.hpp"
#include "tree/cuda/TreeSorting.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// Key bits the depth sort needs: depths 0 .. kTreeMaxDepth fit in 5 bits.
constexpr int kDepthBits = 5;
static_assert((1 << kDepthBits) > kTreeMaxDepth);

template <typename T> std::uint64_t bytesOf(const DeviceBuffer<T>& buffer) {
    return buffer.bytes();
}

/// eps^2 as TreeMath.hpp takes it; eps must be positive so that a body's own term is exactly zero in the force walk.
/// The potential walk skips the own body, so it also takes eps = 0 (direct solvers' exact Newtonian runs).
enum class TreeWalk { Forces, Potentials };
float treeSoftening2(const GravityParams& gravity, TreeWalk walk) {
    const double softening = gravity.softeningLength;
    if (walk == TreeWalk::Potentials && softening == 0.0)
        return 0.0f;
    if (!(softening > 0.0 && softening < 1e18))
        throw std::invalid_argument("the CUDA tree needs a softening length in (0, 1e18), got " +
                                    std::to_string(softening));
    return float(softening * softening);
}

} // namespace

DeviceTree::DeviceTree()
    : m_boxBlockBounds(6 * kMaxBoundingBoxBlocks), m_boxBlockNonFinite(kMaxBoundingBoxBlocks), m_boxTicket(1),
      m_frame(1), m_status(1), m_walkCounters(2), m_multiprocessorCount(multiprocessorCount()), m_boxCount(1) {}

void DeviceTree::overrideWalkGroupCapacity(unsigned capacity) {
    if (capacity != 0 && (capacity < kSmallWalkGroupSize || capacity > kWalkGroupSize))
        throw std::invalid_argument("DeviceTree: walk group capacity " + std::to_string(capacity) + ", allowed " +
                                    std::to_string(kSmallWalkGroupSize) + " to " + std::to_string(kWalkGroupSize));
    m_walkGroupCapacityOverride = capacity;
}

unsigned DeviceTree::walkGroupCapacity() const {
    if (m_walkGroupCapacityOverride != 0)
        return m_walkGroupCapacityOverride;
    const std::uint64_t largeGroupsFrom = std::uint64_t(m_multiprocessorCount) * kLargeWalkGroupMinBodiesPerSM;
    return m_bodyCount >= largeGroupsFrom ? kWalkGroupSize : kSmallWalkGroupSize;
}

void DeviceTree::release() {
    const unsigned capacityOverride = m_walkGroupCapacityOverride;
    *this = DeviceTree();
    m_walkGroupCapacityOverride = capacityOverride;
}

std::uint64_t DeviceTree::allocatedBytes() const {
    std::uint64_t total = 0;
    for (int side = 0; side < 2; ++side)
        total += bytesOf(m_cellLevel[side]) + bytesOf(m_cellOrder[side]);
    total += bytesOf(m_leafDepth) + bytesOf(m_boxBlockBounds) + bytesOf(m_boxBlockNonFinite) + bytesOf(m_boxTicket) +
             bytesOf(m_frame) + bytesOf(m_status) + bytesOf(m_monopole) + bytesOf(m_quadrupole) +
             bytesOf(m_quadrupoleMixedTrace) + bytesOf(m_openingRadius2) + bytesOf(m_relativeErrorScale) +
             bytesOf(m_content) + bytesOf(m_bodyRange) + bytesOf(m_cellFirstBody) + bytesOf(m_sortScratch) +
             bytesOf(m_walkGroups) + bytesOf(m_walkCounters) + bytesOf(m_activeWalkGroups) +
             bytesOf(m_activeWalkCounters) + bytesOf(m_boxes) + bytesOf(m_boxCount);
    return total;
}

std::size_t DeviceTree::walkGroupCount(cudaStream_t stream) const {
    if (!m_built)
        return 0;
    unsigned groupTotal = 0;
    CUDA_CHECK(cudaMemcpyAsync(&groupTotal, m_walkCounters.data(), sizeof groupTotal, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return groupTotal;
}

void DeviceTree::reserveBodies(unsigned bodyCount) {
    m_keys.resize(bodyCount);
    m_bodyIndices.resize(bodyCount);
    m_leafDepth.resize(bodyCount);
}

void DeviceTree::reserveCells(std::size_t cellCount) {
    if (cellCount >= kMaxTreeCells)
        throw std::runtime_error("the octree of " + std::to_string(m_bodyCount) + " bodies would have " +
                                 std::to_string(cellCount) + " cells; the CUDA tree holds fewer than 2^29");
    if (cellCount <= m_cellCapacity)
        return;
    // A sixteenth more than asked, so a slowly growing tree does not reallocate every step.
    const std::size_t capacity = std::min(kMaxTreeCells, cellCount + cellCount / 16 + 1024);
    m_monopole.resize(capacity);
    m_quadrupole.resize(capacity);
    m_quadrupoleMixedTrace.resize(capacity);
    m_openingRadius2.resize(capacity);
    m_relativeErrorScale.resize(capacity);
    m_content.resize(capacity);
    m_bodyRange.resize(capacity);
    m_cellFirstBody.resize(capacity);
    for (int side = 0; side < 2; ++side) {
        m_cellLevel[side].resize(capacity);
        m_cellOrder[side].resize(capacity);
    }
    m_cellCapacity = capacity;
}

OctreeView DeviceTree::view() const {
    return {m_monopole.data(),
            m_quadrupole.data(),
            m_quadrupoleMixedTrace.data(),
            m_openingRadius2.data(),
            m_relativeErrorScale.data(),
            m_content.data(),
            m_bodyRange.data(),
            m_cellLevel[m_sortedLevelSide].data(),
            unsigned(m_cellCount)};
}

unsigned DeviceTree::computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                          const GravityParams& gravity, const TreeOpening& opening, cudaStream_t stream,
                                          PhaseTimeline& timeline, const PhaseMarks& phases) {
    if (const unsigned nonFinite = buildForWalk(bodies, bodyScratch, gravity, opening, stream, timeline, phases);
        nonFinite != 0 || bodies.size() == 0)
        return nonFinite;
    CUDA_CHECK(cudaMemsetAsync(m_walkCounters.data() + 1, 0, sizeof(unsigned), stream));
    walk({m_walkGroups.data(), m_walkCounters.data(), m_walkCounters.data() + 1}, bodies, bodyScratch, gravity, opening,
         stream, timeline, phases);
    return 0;
}

unsigned DeviceTree::computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                            const GravityParams& gravity, const TreeOpening& opening,
                                            const DeviceTargets& targets, cudaStream_t stream, PhaseTimeline& timeline,
                                            const PhaseMarks& phases) {
    if (const unsigned nonFinite = buildForWalk(bodies, bodyScratch, gravity, opening, stream, timeline, phases);
        nonFinite != 0 || bodies.size() == 0)
        return nonFinite;
    if (m_activeWalkGroups.size() < m_walkGroups.size())
        m_activeWalkGroups.resize(m_walkGroups.size());
    if (m_activeWalkCounters.size() < 2)
        m_activeWalkCounters.resize(2);
    m_activeWalkCounters.zero(stream);
    launchSelectActiveWalkGroups(m_walkGroups.data(), m_walkCounters.data(), m_walkGroups.size(), treeOrder(),
                                 targets.isTarget, m_activeWalkGroups.data(), m_activeWalkCounters.data(),
                                 targets.surplusBodies, stream);
    walk({m_activeWalkGroups.data(), m_activeWalkCounters.data(), m_activeWalkCounters.data() + 1}, bodies, bodyScratch,
         gravity, opening, stream, timeline, phases);
    return 0;
}

unsigned DeviceTree::buildForWalk(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const GravityParams& gravity,
                                  const TreeOpening& opening, cudaStream_t stream, PhaseTimeline& timeline,
                                  const PhaseMarks& phases) {
    treeSoftening2(gravity, TreeWalk::Forces); // refuses a softening the walk cannot take before anything runs
    if (bodyScratch.size() != bodies.size())
        throw std::invalid_argument("DeviceTree: the scratch array must hold one element per body");
    const unsigned nonFinite = build(bodies.positionMass.data(), unsigned(bodies.size()), bodyScratch.data(),
                                     opening.summaryOpeningAngle(), stream, timeline, phases);
    m_built = false; // until the walk is queued
    return nonFinite;
}

void DeviceTree::walk(const WalkQueue& queue, DeviceBodies& bodies, const DeviceBuffer<float4>& bodyScratch,
                      const GravityParams& gravity, const TreeOpening& opening, cudaStream_t stream,
                      PhaseTimeline& timeline, const PhaseMarks& phases) {
    launchTreeForces(view(), queue, bodyScratch.data(), treeOrder(), bodies.acceleration.data(),
                     treeSoftening2(gravity, TreeWalk::Forces), float(gravity.gravitationalConstant),
                     opening.relativeForceAccuracy, stream);
    timeline.mark(phases.force, stream);
    m_built = true;
}

void DeviceTree::writePotentials(const float4* positionMass, float4* treeOrderedScratch, const GravityParams& gravity,
                                 float* potential, cudaStream_t stream) const {
    if (!m_built)
        throw std::logic_error("DeviceTree::writePotentials: no tree of these bodies is built");
    const float softening2 = treeSoftening2(gravity, TreeWalk::Potentials);
    launchGatherBodies(positionMass, treeOrder(), treeOrderedScratch, m_bodyCount, stream);
    launchTreePotentials(view(), treeOrderedScratch, treeOrder(), m_bodyCount, potential, softening2,
                         float(gravity.gravitationalConstant), stream);
}

unsigned DeviceTree::build(const float4* positionMass, unsigned bodyCount, float4* treeOrderedScratch,
                           float openingAngle, cudaStream_t stream, PhaseTimeline& timeline, const PhaseMarks& phases) {
    m_built = false;
    m_bodyCount = bodyCount;
    if (m_bodyCount == 0)
        return 0;
    reserveBodies(m_bodyCount);

    if (!m_boxTicketZeroed) { // the box kernel's last block resets it from then on
        m_boxTicket.zero(stream);
        m_boxTicketZeroed = true;
    }
    const BoundingBoxScratch boxScratch{m_boxBlockBounds.data(), m_boxBlockNonFinite.data(), m_boxTicket.data()};
    launchTreeBoundingBox(positionMass, m_bodyCount, boxScratch, m_frame.data(), m_status.data(), stream);
    timeline.mark(phases.box, stream);

    launchMortonKeys(positionMass, m_bodyCount, m_frame.data(), m_keys.data(), m_bodyIndices.data(), stream);
    sortKeys(treeOrderedScratch, stream);

    // The scratch is free until the gather (see the design note): cells started per body, then their exclusive scan.
    unsigned* cellsStarted = reinterpret_cast<unsigned*>(treeOrderedScratch);
    unsigned* firstCell = cellsStarted + m_bodyCount;
    const std::uint64_t* sortedKeys = m_keys.data();
    launchLeafDepths(sortedKeys, m_bodyCount, m_leafDepth.data(), cellsStarted, m_status.data(), stream);
    exclusiveSum(cellsStarted, firstCell, m_bodyCount, m_sortScratch, stream);
    const TreeBuildStatus status = readStatus(stream);
    if (status.nonFiniteBodies != 0)
        return status.nonFiniteBodies;
    m_levelBegin.assign(kTreeLevelCount + 1, 0);
    for (int depth = 0; depth < kTreeLevelCount; ++depth)
        m_levelBegin[depth + 1] = m_levelBegin[depth] + status.levelCellCounts[depth];
    m_cellCount = m_levelBegin.back();
    buildCells(m_bodyCount, firstCell, stream);
    formWalkGroups(stream);
    timeline.mark(phases.build, stream);

    launchGatherBodies(positionMass, treeOrder(), treeOrderedScratch, m_bodyCount, stream);
    timeline.mark(phases.sort, stream);

    summarize(treeOrderedScratch, openingAngle, stream);
    timeline.mark(phases.summary, stream);
    m_cellOpeningAngle = openingAngle;
    m_built = true;
    return 0;
}

void DeviceTree::sortKeys(float4* scratch, cudaStream_t stream) {
    static_assert(sizeof(float4) >= sizeof(std::uint64_t) + sizeof(unsigned), "the second buffers fit the scratch");
    std::uint64_t* keys[2] = {m_keys.data(), reinterpret_cast<std::uint64_t*>(scratch)};
    unsigned* indices[2] = {m_bodyIndices.data(), reinterpret_cast<unsigned*>(keys[1] + m_bodyCount)};
    if (sortKeysWithIndices(keys, indices, m_bodyCount, 3 * kTreeMaxDepth, m_sortScratch, stream) == 1) {
        CUDA_CHECK(
            cudaMemcpyAsync(keys[0], keys[1], m_bodyCount * sizeof(std::uint64_t), cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(
            cudaMemcpyAsync(indices[0], indices[1], m_bodyCount * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
    }
}

TreeBuildStatus DeviceTree::readStatus(cudaStream_t stream) const {
    TreeBuildStatus status{};
    m_status.download(std::span<TreeBuildStatus>(&status, 1), stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return status;
}

void DeviceTree::buildCells(unsigned bodyCount, const unsigned* firstCell, cudaStream_t stream) {
    reserveCells(m_cellCount);
    const auto cells = unsigned(m_cellCount);
    launchEmitCells(m_keys.data(), m_leafDepth.data(), firstCell, bodyCount, m_cellLevel[0].data(),
                    m_cellFirstBody.data(), m_cellOrder[0].data(), stream);
    std::uint8_t* levels[2] = {m_cellLevel[0].data(), m_cellLevel[1].data()};
    unsigned* order[2] = {m_cellOrder[0].data(), m_cellOrder[1].data()};
    m_sortedLevelSide = sortLevelsWithIndices(levels, order, cells, kDepthBits, m_sortScratch, stream);
    const std::uint8_t* level = levels[m_sortedLevelSide];
    const unsigned* preorderOf = order[m_sortedLevelSide];
    unsigned* breadthFirstOf = order[1 - m_sortedLevelSide]; // the sort's other value buffer is free now
    launchCellRanges(m_keys.data(), bodyCount, level, preorderOf, m_cellFirstBody.data(), cells, m_bodyRange.data(),
                     breadthFirstOf, stream);
    launchCellContents(m_leafDepth.data(), level, preorderOf, breadthFirstOf, m_bodyRange.data(), cells,
                       m_content.data(), stream);
}

void DeviceTree::formWalkGroups(cudaStream_t stream) {
    // The pre-order first bodies and the breadth-first indices are free once the cells are built.
    unsigned* groupCount = m_cellFirstBody.data();
    unsigned* firstGroup = m_cellOrder[1 - m_sortedLevelSide].data();
    const OctreeView tree = view();
    const std::uint64_t* sortedKeys = m_keys.data();
    const unsigned capacity = walkGroupCapacity();
    launchCountWalkGroups(tree, sortedKeys, capacity, groupCount, stream);
    exclusiveSum(groupCount, firstGroup, unsigned(m_cellCount), m_sortScratch, stream);
    // The exact count sizes the array (a second wait for the device, microseconds): a bound from the cell count alone
    // (two groups per cell) would hold 5 bytes per body where about 0.1 are used.
    unsigned last[2] = {0, 0};
    CUDA_CHECK(
        cudaMemcpyAsync(&last[0], groupCount + m_cellCount - 1, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(&last[1], firstGroup + m_cellCount - 1, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::size_t groups = std::size_t(last[0]) + last[1];
    if (m_walkGroups.size() < groups)
        m_walkGroups.resize(groups + groups / 16 + 64);
    launchWriteWalkGroups(tree, sortedKeys, capacity, groupCount, firstGroup, m_walkGroups.data(),
                          m_walkCounters.data(), stream);
}

void DeviceTree::summarize(const float4* positionMass, float openingAngle, cudaStream_t stream) {
    const OctreeView tree = view();
    const OctreeMultipoles multipoles{m_monopole.data(), m_quadrupole.data(), m_quadrupoleMixedTrace.data(),
                                      m_openingRadius2.data(), m_relativeErrorScale.data()};
    for (int depth = kTreeMaxDepth; depth >= 0; --depth) {
        const std::size_t begin = m_levelBegin[depth], end = m_levelBegin[depth + 1];
        launchSummarizeLevel(tree, multipoles, positionMass, m_keys.data(), m_frame.data(), unsigned(begin),
                             unsigned(end - begin), depth, openingAngle, stream);
    }
}

void DeviceTree::writeLeafDepthVertices(const float4* positionMass, RenderVertex* vertices, std::size_t bodyCount,
                                        cudaStream_t stream) const {
    if (!m_built || bodyCount != m_bodyCount)
        throw std::logic_error("DeviceTree::writeLeafDepthVertices: no tree of these bodies is built");
    launchWriteLeafDepthVertices(positionMass, treeOrder(), m_leafDepth.data(), vertices, m_bodyCount, stream);
}

void DeviceTree::collectCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const {
    out.clear();
    if (!m_built || query.maxCells == 0 || query.minDepth > query.maxDepth)
        return;
    if (query.containingPoint)
        collectPath(query, out, stream);
    else
        collectLevels(query, out, stream);
}

void DeviceTree::collectLevels(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const {
    const int minDepth = std::clamp(query.minDepth, 0, kTreeLevelCount);
    const int maxDepth = std::clamp(query.maxDepth, -1, kTreeMaxDepth);
    const std::size_t first = m_levelBegin[minDepth];
    const std::size_t end = std::max(first, m_levelBegin[maxDepth + 1]);
    const std::size_t count = std::min(end - first, query.maxCells);
    if (count == 0)
        return;
    if (m_boxes.size() < count)
        m_boxes.resize(count);
    launchCellBoxes(view(), m_keys.data(), m_frame.data(), unsigned(first), unsigned(count), m_boxes.data(), stream);
    out.resize(count);
    CUDA_CHECK(
        cudaMemcpyAsync(out.data(), m_boxes.data(), count * sizeof(TreeCellBox), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

void DeviceTree::collectPath(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const {
    if (m_boxes.size() < std::size_t(kTreeLevelCount))
        m_boxes.resize(kTreeLevelCount);
    const auto& point = *query.containingPoint;
    launchCellPath(view(), m_keys.data(), m_frame.data(), float3{point[0], point[1], point[2]}, m_boxes.data(),
                   m_boxCount.data(), stream);
    unsigned found = 0;
    std::vector<TreeCellBox> path(kTreeLevelCount);
    CUDA_CHECK(cudaMemcpyAsync(&found, m_boxCount.data(), sizeof found, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(path.data(), m_boxes.data(), path.size() * sizeof(TreeCellBox), cudaMemcpyDeviceToHost,
                               stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (unsigned k = 0; k < found && out.size() < query.maxCells; ++k)
        if (path[k].depth >= query.minDepth && path[k].depth <= query.maxDepth)
            out.push_back(path[k]);
}

void DeviceTree::download(OctreeSnapshot& out, cudaStream_t stream) const {
    out = OctreeSnapshot{};
    if (!m_built)
        return;
    const auto copy = [&](auto& host, const auto& device, std::size_t count) {
        host.resize(count);
        if (count != 0)
            CUDA_CHECK(
                cudaMemcpyAsync(host.data(), device.data(), count * sizeof(host[0]), cudaMemcpyDeviceToHost, stream));
    };
    out.levelBegin = m_levelBegin;
    copy(out.monopole, m_monopole, m_cellCount);
    copy(out.quadrupole, m_quadrupole, m_cellCount);
    copy(out.quadrupoleMixedTrace, m_quadrupoleMixedTrace, m_cellCount);
    copy(out.openingRadius2, m_openingRadius2, m_cellCount);
    copy(out.content, m_content, m_cellCount);
    copy(out.bodyRange, m_bodyRange, m_cellCount);
    std::vector<std::uint8_t> leafDepthOfSlots;
    copy(leafDepthOfSlots, m_leafDepth, m_bodyCount);
    out.treeOrder.resize(m_bodyCount);
    CUDA_CHECK(cudaMemcpyAsync(out.treeOrder.data(), treeOrder(), m_bodyCount * sizeof(unsigned),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(&out.frame, m_frame.data(), sizeof(TreeFrame), cudaMemcpyDeviceToHost, stream));
    unsigned groupTotal = 0;
    CUDA_CHECK(cudaMemcpyAsync(&groupTotal, m_walkCounters.data(), sizeof groupTotal, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    copy(out.walkGroups, m_walkGroups, std::min<std::size_t>(groupTotal, m_walkGroups.size()));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    out.leafDepthOfBodies.resize(m_bodyCount);
    for (std::size_t slot = 0; slot < m_bodyCount; ++slot)
        out.leafDepthOfBodies[out.treeOrder[slot]] = leafDepthOfSlots[slot];
}

} // namespace gravlab
