// Barnes-Hut force walk on the CPU (see TreeForcesCpu.hpp).
//
// Design note: a group's walk only decides; it appends the multipoles of accepted cells and the bodies of opened
// leaves to per-thread interaction lists (TreeInteractionLists.hpp), which TreeListsSimd then evaluates for each target
// of the group with vector arithmetic. Deciding once per group instead of once per body divides the walk's cost by the
// group size; the lists grow by what the box's extent opens beyond each body's own criterion. The walk decides all
// children of an opened cell at once into bit masks (no accept-or-open branch per cell, which mispredicts about every
// other time) and reads a compact 32-byte record per cell (WalkNode). A leaf of at most kTreeTinyLeafMaxBodies bodies
// is always taken body by body, as in the CUDA walk (exact, and cheaper than one quadrupole term). The CUDA walk's
// other shortcut, far cells as monopoles (TreeMath's monopoleSuffices), saved no time here (100k Plummer, 2-core Zen 5:
// the test cost what the cheaper terms saved) and is left out, which keeps every accepted cell's quadrupole.
// Group size (kTreeWalkGroupCapacity): measured on a 2-core Zen 5 (AVX-512), 100k-body Plummer sphere, theta 0.5, one
// thread: groups of 16, 32, 64, 128 took 290, 200, 150, 129 ms (mean list length 3346, 3657, 4078, 4709): the walk,
// about half of the time at 64, falls with the group count while the lists grow slowly. 128 also for the relative
// criterion (alpha 0.0025: 80, 70, 71 ms at 64, 96, 128).
// OpenMP threads take groups with a dynamic schedule (a core group costs many times a halo group); each target's sums
// run in one thread over lists in walk order, so the result does not depend on the thread count. Work per visited
// cell: ~12 flops and 32 bytes for the box test; per accepted cell 44 bytes copied into the list, then ~35 vector lane
// operations per target (TreeListsSimd.cpp); per body of an opened leaf 16 bytes copied, then ~18 per target.
#include "tree/TreeForcesCpu.hpp"

#include "core/Parallel.hpp"
#include "tree/TreeInteractionLists.hpp"
#include "tree/TreeListsSimd.hpp"
#include "tree/TreeWalkCpu.hpp"
#include "tree/TreeWalkGroups.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// The relative criterion's reference acceleration of a group is its smallest |a|, but at least this fraction of its
/// largest, as on the GPU: one body of nearly cancelling forces (a system's centre) would otherwise turn its group's
/// walk into a direct sum; for that body alone the bound is then loose.
constexpr float kRelativeToleranceFloor = 0.01f;

struct GroupBox {
    float lowX, lowY, lowZ, highX, highY, highZ;
};

GroupBox boxOfSlots(const TreeOrderedBodies& bodies, const TreeWalkGroup& group) {
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    GroupBox box{kInfinity, kInfinity, kInfinity, -kInfinity, -kInfinity, -kInfinity};
    for (std::uint32_t slot = group.firstBody; slot < group.firstBody + group.bodyCount; ++slot) {
        box.lowX = std::min(box.lowX, bodies.x[slot]);
        box.lowY = std::min(box.lowY, bodies.y[slot]);
        box.lowZ = std::min(box.lowZ, bodies.z[slot]);
        box.highX = std::max(box.highX, bodies.x[slot]);
        box.highY = std::max(box.highY, bodies.y[slot]);
        box.highZ = std::max(box.highZ, bodies.z[slot]);
    }
    return box;
}

/// Squared distance from a point to the nearest point of the box (0 inside). At most one of the two differences per
/// axis is positive, so their clamped sum is the distance along the axis, without a branch.
inline float distance2ToBox(float x, float y, float z, const GroupBox& box) {
    const float dx = std::max(box.lowX - x, 0.0f) + std::max(x - box.highX, 0.0f);
    const float dy = std::max(box.lowY - y, 0.0f) + std::max(y - box.highY, 0.0f);
    const float dz = std::max(box.lowZ - z, 0.0f) + std::max(z - box.highZ, 0.0f);
    return dx * dx + dy * dy + dz * dz;
}

/// What the walk's decisions read of a cell, 32 bytes in one record (the octree's cell, multipole and radius arrays
/// spread it over 88 bytes in three places); a cell's children are contiguous, so deciding them reads two or three
/// cache lines. Built per evaluation (O(cells), well under a millisecond at 1M bodies). At 100k bodies it measured as
/// fast as reading the octree's arrays: the walk's time goes to its list appends and decisions, not to cache misses.
struct WalkNode {
    float comX, comY, comZ;
    float openingRadiusSquared;
    std::int32_t firstChild; ///< -1 for a leaf
    std::int32_t childCount;
    std::uint32_t firstBody;
    std::uint32_t bodyCount;
};

std::vector<WalkNode> walkNodesOf(const OctreeCpu& tree) {
    const std::vector<OctreeCell>& cells = tree.cells();
    const std::vector<CellMultipole>& multipoles = tree.multipoles();
    std::vector<WalkNode> nodes(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c)
        nodes[c] = {multipoles[c].comX,
                    multipoles[c].comY,
                    multipoles[c].comZ,
                    tree.openingRadiusSquared()[c],
                    cells[c].isLeaf() ? -1 : cells[c].firstChild,
                    cells[c].childCount,
                    cells[c].firstBody,
                    cells[c].bodyCount};
    return nodes;
}

/// Sorts the children of an opened cell by what the walk does with them, one bit per child: accepted as a multipole,
/// taken body by body (tiny leaves and opened leaves), opened (inner cells).
struct ChildDecisions {
    unsigned accepted = 0, bodies = 0, opened = 0;
};

/// Decides all children of one opened cell without a branch per child (an accept-or-open branch mispredicts about
/// every other time; a loop over the set bits of a mask once per kind).
template <bool kRelative>
ChildDecisions decideChildren(const std::vector<WalkNode>& nodes, const std::vector<float>& errorScales,
                              const WalkNode& parent, const GroupBox& box, RelativeOpening relative) {
    ChildDecisions decisions;
    for (std::int32_t c = 0; c < parent.childCount; ++c) {
        const auto index = std::size_t(parent.firstChild + c);
        const WalkNode& node = nodes[index];
        const float distance2 = distance2ToBox(node.comX, node.comY, node.comZ, box);
        bool accept = distance2 > node.openingRadiusSquared;
        if constexpr (kRelative)
            accept &= relativeCriterionAccepts(errorScales[index], relative.inverseTolerance, distance2, relative.eps2);
        const bool leaf = node.firstChild < 0;
        const bool tiny = leaf & (node.bodyCount <= kTreeTinyLeafMaxBodies);
        decisions.accepted |= unsigned(accept & !tiny) << c;
        decisions.bodies |= unsigned(tiny | (leaf & !accept)) << c;
        decisions.opened |= unsigned(!leaf & !accept) << c;
    }
    return decisions;
}

/// Fills lists with what every point of box interacts with: a cell is accepted when TreeMath's criterion holds from
/// the nearest point of the box, so for each target of the group its own criterion holds. The root contains the box,
/// so it is opened (or, as a leaf, taken body by body).
template <MultipoleOrder order, bool kRelative>
void walkGroup(const OctreeCpu& tree, const std::vector<WalkNode>& nodes, const GroupBox& box, RelativeOpening relative,
               InteractionLists& lists) {
    const std::vector<CellMultipole>& multipoles = tree.multipoles();
    const std::vector<float>& errorScales = tree.relativeErrorScales();
    const TreeOrderedBodies& bodies = tree.orderedBodies();
    lists.clear();
    if (nodes[0].firstChild < 0) {
        lists.addBodies(bodies, nodes[0].firstBody, nodes[0].bodyCount);
        return;
    }
    std::array<std::int32_t, kTreeWalkStackCapacity> stack;
    std::size_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const WalkNode& parent = nodes[std::size_t(stack[--top])];
        const ChildDecisions decisions = decideChildren<kRelative>(nodes, errorScales, parent, box, relative);
        for (unsigned mask = decisions.accepted; mask != 0; mask &= mask - 1) {
            const CellMultipole& multipole = multipoles[std::size_t(parent.firstChild + std::countr_zero(mask))];
            if (order == MultipoleOrder::Monopole)
                lists.addSource(multipole.comX, multipole.comY, multipole.comZ, multipole.mass);
            else
                lists.addCell(multipole);
        }
        for (unsigned mask = decisions.bodies; mask != 0; mask &= mask - 1) {
            const WalkNode& leaf = nodes[std::size_t(parent.firstChild + std::countr_zero(mask))];
            lists.addBodies(bodies, leaf.firstBody, leaf.bodyCount);
        }
        // Last child first onto the stack, so the first child is walked first.
        for (unsigned mask = decisions.opened; mask != 0;) {
            const int child = std::bit_width(mask) - 1;
            mask &= ~(1u << child);
            stack[top++] = parent.firstChild + child;
        }
    }
}

/// The relative criterion's inverse tolerance of a group from its bodies' previous accelerations (read before any of
/// them is overwritten); 0 under the geometric criterion.
float groupInverseTolerance(const OctreeCpu& tree, const TreeForceParams& params, const TreeWalkGroup& group) {
    if (params.previousAccelerations == nullptr)
        return 0;
    const Vec3Arrays<float>& previous = *params.previousAccelerations;
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    float smallest = std::numeric_limits<float>::infinity(), largest = 0;
    for (std::uint32_t slot = group.firstBody; slot < group.firstBody + group.bodyCount; ++slot) {
        const std::uint32_t body = bodyOrder[slot];
        const float magnitude = std::hypot(previous.x[body], previous.y[body], previous.z[body]);
        smallest = std::min(smallest, magnitude);
        largest = std::max(largest, magnitude);
    }
    const float reference = std::max(smallest, kRelativeToleranceFloor * largest);
    return relativeInverseTolerance(float(params.gravitationalConstant), params.forceAccuracy, reference);
}

/// Per-thread scratch: the lists and the group's targets (tree slots, positions, sums).
struct GroupScratch {
    InteractionLists lists;
    std::vector<std::uint32_t> slots;
    std::vector<float> x, y, z, ax, ay, az;

    /// Takes the group's slots for which isTarget holds (every slot when isTarget is null).
    void gatherTargets(const TreeOrderedBodies& bodies, const TreeWalkGroup& group, const std::uint8_t* isTarget) {
        slots.clear();
        for (std::uint32_t slot = group.firstBody; slot < group.firstBody + group.bodyCount; ++slot)
            if (isTarget == nullptr || isTarget[slot] != 0)
                slots.push_back(slot);
        for (std::vector<float>* component : {&x, &y, &z, &ax, &ay, &az})
            component->assign(slots.size(), 0.0f);
        for (std::size_t t = 0; t < slots.size(); ++t) {
            x[t] = bodies.x[slots[t]];
            y[t] = bodies.y[slots[t]];
            z[t] = bodies.z[slots[t]];
        }
    }
};

struct WalkRequest {
    const OctreeCpu& tree;
    const TreeForceParams& params;
    const std::vector<TreeWalkGroup>& groups;
    const std::vector<WalkNode>& nodes;
    const std::uint8_t* isTarget; ///< per tree slot, or null: every body
    Vec3Arrays<float>& out;
    float* work;
};

template <MultipoleOrder order, bool kRelative>
void walkAndEvaluateGroup(const WalkRequest& request, std::size_t g, GroupScratch& s) {
    const OctreeCpu& tree = request.tree;
    const TreeWalkGroup& group = request.groups[g];
    s.gatherTargets(tree.orderedBodies(), group, request.isTarget);
    if (s.slots.empty())
        return;
    const auto eps2 = float(request.params.softeningLength * request.params.softeningLength);
    const RelativeOpening relative{groupInverseTolerance(tree, request.params, group), eps2};
    walkGroup<order, kRelative>(tree, request.nodes, boxOfSlots(tree.orderedBodies(), group), relative, s.lists);
    const ListTargets targets{s.x.data(),  s.y.data(),  s.z.data(),    s.ax.data(),
                              s.ay.data(), s.az.data(), s.slots.size()};
    addCellListAccelerations(s.lists.cells(), targets, eps2);
    addSourceListAccelerations(s.lists.sources(), targets, eps2);
    const auto gravitationalConstant = float(request.params.gravitationalConstant);
    const auto interactions = float(s.lists.interactionCount());
    for (std::size_t t = 0; t < s.slots.size(); ++t) {
        const std::uint32_t body = tree.bodyOrder()[s.slots[t]];
        request.out.x[body] = gravitationalConstant * s.ax[t];
        request.out.y[body] = gravitationalConstant * s.ay[t];
        request.out.z[body] = gravitationalConstant * s.az[t];
        if (request.work != nullptr)
            request.work[body] = interactions;
    }
}

template <MultipoleOrder order, bool kRelative> void walkGroups(const WalkRequest& request) {
    const auto groupCount = std::int64_t(request.groups.size());
    const bool worthThreads = std::int64_t(request.tree.bodyCount()) >= kMinBodiesForParallelSampling / 4;
#pragma omp parallel if (parallel : worthThreads)
    {
        GroupScratch scratch;
#pragma omp for schedule(dynamic, 2)
        for (std::int64_t g = 0; g < groupCount; ++g)
            walkAndEvaluateGroup<order, kRelative>(request, std::size_t(g), scratch);
    }
}

void walkGroups(const OctreeCpu& tree, const TreeForceParams& params, const std::uint8_t* isTarget,
                Vec3Arrays<float>& out, float* work) {
    if (tree.multipoles().size() != tree.cells().size())
        throw std::logic_error("tree forces: the octree has not been summarized since it was built");
    if (params.previousAccelerations != nullptr && params.previousAccelerations->size() != tree.bodyCount())
        throw std::invalid_argument("tree forces: " + std::to_string(params.previousAccelerations->size()) +
                                    " previous accelerations for " + std::to_string(tree.bodyCount()) + " bodies");
    std::vector<TreeWalkGroup> groups;
    formTreeWalkGroups(tree, params.walkGroupCapacity, groups);
    const std::vector<WalkNode> nodes = walkNodesOf(tree);
    const WalkRequest request{tree, params, groups, nodes, isTarget, out, work};
    const bool relative = params.previousAccelerations != nullptr;
    if (params.multipoleOrder == MultipoleOrder::Quadrupole)
        relative ? walkGroups<MultipoleOrder::Quadrupole, true>(request)
                 : walkGroups<MultipoleOrder::Quadrupole, false>(request);
    else
        relative ? walkGroups<MultipoleOrder::Monopole, true>(request)
                 : walkGroups<MultipoleOrder::Monopole, false>(request);
}

} // namespace

void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params, Vec3Arrays<float>& out,
                                 std::vector<float>* work) {
    out.resize(tree.bodyCount());
    if (work != nullptr)
        work->resize(tree.bodyCount());
    walkGroups(tree, params, nullptr, out, work != nullptr ? work->data() : nullptr);
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
    // Per tree slot, so a group sees at once which of its bodies are targets.
    std::vector<std::uint8_t> isTarget(count, 0);
    const std::vector<std::uint32_t>& bodyOrder = tree.bodyOrder();
    for (std::size_t slot = 0; slot < count; ++slot)
        isTarget[slot] = listed[bodyOrder[slot]];
    walkGroups(tree, params, isTarget.data(), out, work.data());
}

} // namespace gravlab
