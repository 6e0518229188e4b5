// Octree summary: mass, centre of mass, traceless quadrupole and opening radius of every cell, bottom-up.
//
// Design note: one launch per depth, deepest first (the host knows each depth's cell range from the build status),
// one thread per cell; a cell's children are one depth down and already done, so no counters or flags are needed
// and the result does not depend on scheduling. Sums are fp64, as in the CPU octree (OctreeSummaryCpu.cpp), and
// rounded to float once: a leaf takes its centre of mass first and its quadrupole about it second (two passes, no
// cancellation between large sums), an inner cell shifts each child's quadrupole to its own centre of mass with the
// parallel-axis theorem Q = sum_c [Q_c + m_c (3 d d^T - |d|^2 I)], d = com_c - com (and T = sum_c [T_c + m_c |d|^2]).
// fp64 runs at half the fp32 rate on Hopper and the pass touches each body and each cell once, so it stays a few
// percent of the step. Opening radius: TreeMath.hpp's s / theta + delta, whose theta cap (2 / sqrt(3)) keeps a body
// from accepting a cell that contains it.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/TreeMath.hpp"
#include "tree/cuda/TreeKernels.hpp"
#include "tree/cuda/TreeKeys.cuh"

namespace gravlab {
namespace {

struct Moments {
    double mass;
    double comX, comY, comZ;
    double qxx, qyy, qzz, qxy, qxz, qyz;
    double secondMoment; ///< T = sum m |x - com|^2, the weight of the softening term (TreeMath.hpp)
};

/// Adds m (3 d d^T - |d|^2 I) to the quadrupole and m |d|^2 to the second moment.
__device__ void addPointQuadrupole(Moments& moments, double mass, double dx, double dy, double dz) {
    const double d2 = dx * dx + dy * dy + dz * dz;
    moments.secondMoment += mass * d2;
    moments.qxx += mass * (3.0 * dx * dx - d2);
    moments.qyy += mass * (3.0 * dy * dy - d2);
    moments.qzz += mass * (3.0 * dz * dz - d2);
    moments.qxy += mass * 3.0 * dx * dy;
    moments.qxz += mass * 3.0 * dx * dz;
    moments.qyz += mass * 3.0 * dy * dz;
}

/// com = sum / mass, or the cell's centre when the cell has no mass.
__device__ void setCenterOfMass(Moments& moments, double sumX, double sumY, double sumZ, const tree::CellBox& box) {
    const bool massive = moments.mass > 0.0;
    moments.comX = massive ? sumX / moments.mass : box.centerX;
    moments.comY = massive ? sumY / moments.mass : box.centerY;
    moments.comZ = massive ? sumZ / moments.mass : box.centerZ;
}

__device__ Moments leafMoments(const float4* __restrict__ positionMass, unsigned first, unsigned count,
                               const tree::CellBox& box) {
    Moments moments{};
    double sumX = 0.0, sumY = 0.0, sumZ = 0.0;
    for (unsigned i = first; i < first + count; ++i) {
        const float4 p = positionMass[i];
        moments.mass += p.w;
        sumX += double(p.w) * p.x;
        sumY += double(p.w) * p.y;
        sumZ += double(p.w) * p.z;
    }
    setCenterOfMass(moments, sumX, sumY, sumZ, box);
    for (unsigned i = first; i < first + count; ++i) {
        const float4 p = positionMass[i];
        addPointQuadrupole(moments, p.w, p.x - moments.comX, p.y - moments.comY, p.z - moments.comZ);
    }
    return moments;
}

__device__ Moments innerMoments(const OctreeView& tree, unsigned firstChild, unsigned childCount,
                                const tree::CellBox& box) {
    Moments moments{};
    double sumX = 0.0, sumY = 0.0, sumZ = 0.0;
    for (unsigned c = firstChild; c < firstChild + childCount; ++c) {
        const float4 child = tree.monopole[c];
        moments.mass += child.w;
        sumX += double(child.w) * child.x;
        sumY += double(child.w) * child.y;
        sumZ += double(child.w) * child.z;
    }
    setCenterOfMass(moments, sumX, sumY, sumZ, box);
    for (unsigned c = firstChild; c < firstChild + childCount; ++c) {
        const float4 child = tree.monopole[c];
        const float4 q = tree.quadrupole[c];
        const float4 mixed = tree.quadrupoleMixedTrace[c];
        moments.qxx += q.x;
        moments.qyy += q.y;
        moments.qzz += q.z;
        moments.qxy += q.w;
        moments.qxz += mixed.x;
        moments.qyz += mixed.y;
        moments.secondMoment += mixed.z;
        addPointQuadrupole(moments, child.w, child.x - moments.comX, child.y - moments.comY, child.z - moments.comZ);
    }
    return moments;
}

// Work per cell: a leaf of n bodies about 25 n fp64 flops and 32 n bytes read (two passes over its bodies, mostly
// from L1 the second time); an inner cell about 25 fp64 flops and 56 bytes per child. 44 bytes written.
__global__ void summarizeLevelKernel(OctreeView tree, OctreeMultipoles multipoles,
                                     const float4* __restrict__ positionMass, const std::uint64_t* __restrict__ keys,
                                     const TreeFrame* __restrict__ frame, unsigned levelBegin, unsigned levelCount,
                                     int depth, float openingAngle) {
    const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= levelCount)
        return;
    const unsigned cell = levelBegin + k;
    const uint2 content = tree.content[cell];
    const tree::CellBox box = tree::cellBoxOf(*frame, keys[tree.bodyRange[cell].x], depth);
    const bool leaf = (content.y & kLeafFlag) != 0;
    const Moments m = leaf ? leafMoments(positionMass, content.x, content.y & ~kLeafFlag, box)
                           : innerMoments(tree, content.x, content.y, box);

    const double offsetX = m.comX - box.centerX, offsetY = m.comY - box.centerY, offsetZ = m.comZ - box.centerZ;
    const float offset = float(sqrt(offsetX * offsetX + offsetY * offsetY + offsetZ * offsetZ));
    const float radius = openingRadius(2.0f * box.halfSize, offset, openingAngle);
    multipoles.monopole[cell] = make_float4(float(m.comX), float(m.comY), float(m.comZ), float(m.mass));
    multipoles.quadrupole[cell] = make_float4(float(m.qxx), float(m.qyy), float(m.qzz), float(m.qxy));
    multipoles.quadrupoleMixedTrace[cell] = make_float4(float(m.qxz), float(m.qyz), float(m.secondMoment), 0.0f);
    multipoles.openingRadius2[cell] = radius * radius;
    multipoles.relativeErrorScale[cell] = relativeErrorScale(float(m.mass), 2.0f * box.halfSize);
}

} // namespace

void launchSummarizeLevel(const OctreeView& tree, const OctreeMultipoles& multipoles, const float4* positionMass,
                          const std::uint64_t* sortedKeys, const TreeFrame* frame, unsigned levelBegin,
                          unsigned levelCount, int depth, float openingAngle, cudaStream_t stream) {
    if (levelCount == 0)
        return;
    const LaunchSize size = launchSize1d(levelCount, 128);
    summarizeLevelKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        tree, multipoles, positionMass, sortedKeys, frame, levelBegin, levelCount, depth, openingAngle);
    checkLaunch("summarizeLevelKernel");
}

} // namespace gravlab
