// Per-body gravitational potentials on the GPU from the built octree, on request (energy plots, potential colours).
//
// Design note: one thread per body, in tree order (neighbouring threads hold neighbouring bodies, so they visit nearly
// the same cells and their loads coalesce into the same lines), walking from the root depth first with a stack of
// sibling ranges in registers/local memory: children are contiguous in the breadth-first layout, so a range
// (first << 3 | count - 1) stands for all of a cell's children and each level adds at most one range
// (kTreeLevelCount + 1 entries always suffice). The criterion is the per-body one of the CPU tree (TreeMath.hpp's
// opening radius against the body's own distance), so the GPU potential accepts the same cells as the CPU's for the
// same tree; accepted cells add TreeMath's multipolePotential, opened leaves their bodies' softened monopoles except
// the body itself (its own softened term -m / eps is not part of W). Each thread sums its terms in fp64 (an fp64 add
// per term: the walk is bound by its loads, and the float terms' rounding then stays below the expansion's error).
// This walk is simpler than the force kernel's warp-per-group walk (TreeForces.cu) and several times slower per body,
// which is fine for a measurement taken a few times a second at most, not every step.
// Work per body: per visited cell ~12 flops and 28 bytes (monopole, opening radius, content); per accepted cell ~35
// flops and 32 more bytes; per body of an opened leaf ~10 flops and 16 bytes. 16 bytes read, 4 written (scattered) per
// body besides.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/TreeMath.hpp"
#include "tree/cuda/TreeKernels.hpp"

namespace gravlab {
namespace {

constexpr unsigned kThreads = 128;
constexpr int kRangeStackCapacity = kTreeLevelCount + 1;

__device__ double potentialAtSlot(const OctreeView& tree, const float4* __restrict__ positionMass, unsigned own,
                                  float softening2) {
    const float4 target = positionMass[own];
    unsigned ranges[kRangeStackCapacity];
    int top = 0;
    ranges[top++] = 0u; // the root: first cell 0, one cell
    double potential = 0.0;
    while (top > 0) {
        const unsigned packed = ranges[top - 1];
        const unsigned cell = packed >> 3;
        if ((packed & 7u) == 0u)
            --top;
        else
            ranges[top - 1] = (cell + 1u) << 3 | ((packed & 7u) - 1u);
        const float4 monopole = tree.monopole[cell];
        const float dx = target.x - monopole.x, dy = target.y - monopole.y, dz = target.z - monopole.z;
        const uint2 content = tree.content[cell];
        if (dx * dx + dy * dy + dz * dz > tree.openingRadius2[cell]) {
            const float4 q = tree.quadrupole[cell];
            const float4 mixed = tree.quadrupoleMixedTrace[cell];
            const CellMultipole multipole{monopole.w, monopole.x, monopole.y, monopole.z, q.x,    q.y,
                                          q.z,        q.w,        mixed.x,    mixed.y,    mixed.z};
            potential += double(multipolePotential(dx, dy, dz, multipole, softening2));
        } else if ((content.y & kLeafFlag) != 0) {
            const unsigned last = content.x + (content.y & ~kLeafFlag);
            for (unsigned slot = content.x; slot < last; ++slot) {
                const float4 body = positionMass[slot];
                if (slot != own)
                    potential += double(
                        bodyPotential(target.x - body.x, target.y - body.y, target.z - body.z, body.w, softening2));
            }
        } else {
            // Ranges on the stack belong to distinct depths 1 .. kTreeMaxDepth (the root's range is gone once its one
            // cell is taken), so this push always fits.
            ranges[top++] = content.x << 3 | (content.y - 1u);
        }
    }
    return potential;
}

__global__ void __launch_bounds__(kThreads)
    treePotentialsKernel(OctreeView tree, const float4* __restrict__ positionMass,
                         const unsigned* __restrict__ treeOrder, unsigned bodyCount, float* __restrict__ potential,
                         float softening2, float gravitationalConstant) {
    const unsigned slot = blockIdx.x * kThreads + threadIdx.x;
    if (slot >= bodyCount)
        return;
    potential[treeOrder[slot]] =
        float(double(gravitationalConstant) * potentialAtSlot(tree, positionMass, slot, softening2));
}

} // namespace

void launchTreePotentials(const OctreeView& tree, const float4* treeOrderedPositionMass, const unsigned* treeOrder,
                          unsigned bodyCount, float* potential, float softening2, float gravitationalConstant,
                          cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount, kThreads);
    treePotentialsKernel<<<size.blocks, kThreads, 0, stream>>>(tree, treeOrderedPositionMass, treeOrder, bodyCount,
                                                               potential, softening2, gravitationalConstant);
    checkLaunch("treePotentialsKernel");
}

} // namespace gravlab
