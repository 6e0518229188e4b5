// SIMD interaction-list evaluation (see TreeListsSimd.hpp). Compiled once per Highway target (foreach_target.h
// re-includes this file), dispatched at the first call to the best target the CPU supports.
//
// Work per source and target: 17 vector operations per lane for a point source (softened monopole with the refined
// reciprocal square root), 34 for a cell (the quadrupole term); loads: 4 (sources) or 11 (cells) floats per source,
// shared by the targets of a pass.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tree/TreeListsSimd.cpp"
#include "tree/TreeListsSimd.hpp"

#include <algorithm>
#include <hwy/foreach_target.h> // must come before highway.h
#include <hwy/highway.h>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace gravlab {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Internal linkage: other Highway files of gravlab_sim have per-target namespaces of the same names.
namespace {

using FloatTag = hn::ScalableTag<float>;
using FloatVector = hn::Vec<FloatTag>;

/// 1 / sqrt(r2): the hardware estimate and one Newton step, y (3 - r2 y^2) / 2. r2 is first clamped to the largest
/// float: an overflowing r2 (a body near 1e19 or beyond) then gives a tiny finite y, as 1 / sqrt(inf) = 0 does in the
/// scalar code, where the unclamped step would compute inf * 0 = NaN.
HWY_INLINE FloatVector reciprocalSqrtRefined(FloatTag d, FloatVector r2) {
    const FloatVector finiteR2 = hn::Min(r2, hn::Set(d, std::numeric_limits<float>::max()));
    const FloatVector estimate = hn::ApproximateReciprocalSqrt(finiteR2);
    const FloatVector halfR2 = hn::Mul(hn::Set(d, 0.5f), finiteR2);
    return hn::Mul(estimate, hn::NegMulAdd(hn::Mul(halfR2, estimate), estimate, hn::Set(d, 1.5f)));
}

/// kTargets targets held in registers for one pass over a list: positions broadcast, accelerations summed per lane.
/// Targets past the last are clamped copies of it, which addTo leaves out.
template <std::size_t kTargets> struct TargetRegisters {
    FloatVector x[kTargets], y[kTargets], z[kTargets], ax[kTargets], ay[kTargets], az[kTargets];

    HWY_INLINE TargetRegisters(FloatTag d, const ListTargets& targets, std::size_t first) {
        for (std::size_t t = 0; t < kTargets; ++t) {
            const std::size_t target = std::min(first + t, targets.count - 1);
            x[t] = hn::Set(d, targets.x[target]);
            y[t] = hn::Set(d, targets.y[target]);
            z[t] = hn::Set(d, targets.z[target]);
            ax[t] = ay[t] = az[t] = hn::Zero(d);
        }
    }

    HWY_INLINE void addTo(FloatTag d, const ListTargets& targets, std::size_t first) const {
        for (std::size_t t = 0; t < kTargets && first + t < targets.count; ++t) {
            targets.ax[first + t] += hn::GetLane(hn::SumOfLanes(d, ax[t]));
            targets.ay[first + t] += hn::GetLane(hn::SumOfLanes(d, ay[t]));
            targets.az[first + t] += hn::GetLane(hn::SumOfLanes(d, az[t]));
        }
    }
};

/// One pass over the sources for targets first .. first + kTargets - 1 (clamped to the last; the copies store nothing).
template <std::size_t kTargets>
HWY_INLINE void sourcePass(const SourceListView& sources, const ListTargets& targets, std::size_t first, float eps2) {
    const FloatTag d;
    const std::size_t lanes = hn::Lanes(d);
    TargetRegisters<kTargets> held(d, targets, first);
    const FloatVector softening2 = hn::Set(d, eps2);
    for (std::size_t k = 0; k < sources.count; k += lanes) {
        const FloatVector sx = hn::LoadU(d, sources.x + k), sy = hn::LoadU(d, sources.y + k);
        const FloatVector sz = hn::LoadU(d, sources.z + k), mass = hn::LoadU(d, sources.mass + k);
        HWY_UNROLL(4)
        for (std::size_t t = 0; t < kTargets; ++t) {
            const FloatVector dx = hn::Sub(held.x[t], sx), dy = hn::Sub(held.y[t], sy), dz = hn::Sub(held.z[t], sz);
            const FloatVector r2 = hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, softening2)));
            const FloatVector rInv = reciprocalSqrtRefined(d, r2);
            const FloatVector factor = hn::Mul(mass, hn::Mul(hn::Mul(rInv, rInv), rInv));
            held.ax[t] = hn::NegMulAdd(factor, dx, held.ax[t]);
            held.ay[t] = hn::NegMulAdd(factor, dy, held.ay[t]);
            held.az[t] = hn::NegMulAdd(factor, dz, held.az[t]);
        }
    }
    held.addTo(d, targets, first);
}

/// One cell's components, a vector of cells.
struct CellVectors {
    FloatVector mass, comX, comY, comZ, qxx, qyy, qzz, qxy, qxz, qyz, softenedTrace;
};

/// TreeMath's addMultipoleAcceleration for a vector of cells and one target.
HWY_INLINE void addCellTerm(FloatTag d, const CellVectors& cell, FloatVector x, FloatVector y, FloatVector z,
                            FloatVector softening2, FloatVector& ax, FloatVector& ay, FloatVector& az) {
    const FloatVector dx = hn::Sub(x, cell.comX), dy = hn::Sub(y, cell.comY), dz = hn::Sub(z, cell.comZ);
    const FloatVector r2 = hn::MulAdd(dz, dz, hn::MulAdd(dy, dy, hn::MulAdd(dx, dx, softening2)));
    const FloatVector rInv = reciprocalSqrtRefined(d, r2);
    const FloatVector rInv2 = hn::Mul(rInv, rInv);
    const FloatVector rInv5 = hn::Mul(hn::Mul(rInv2, rInv2), rInv);
    const FloatVector qdx = hn::MulAdd(cell.qxz, dz, hn::MulAdd(cell.qxy, dy, hn::Mul(cell.qxx, dx)));
    const FloatVector qdy = hn::MulAdd(cell.qyz, dz, hn::MulAdd(cell.qyy, dy, hn::Mul(cell.qxy, dx)));
    const FloatVector qdz = hn::MulAdd(cell.qzz, dz, hn::MulAdd(cell.qyz, dy, hn::Mul(cell.qxz, dx)));
    // d.Q.d - eps^2 T, with eps^2 T precomputed per cell (softenedTrace)
    const FloatVector softenedDQd = hn::MulAdd(dz, qdz, hn::MulAdd(dy, qdy, hn::MulSub(dx, qdx, cell.softenedTrace)));
    const FloatVector radial = hn::NegMulAdd(cell.mass, r2, hn::Mul(hn::Set(d, -2.5f), hn::Mul(softenedDQd, rInv2)));
    ax = hn::MulAdd(hn::MulAdd(radial, dx, qdx), rInv5, ax);
    ay = hn::MulAdd(hn::MulAdd(radial, dy, qdy), rInv5, ay);
    az = hn::MulAdd(hn::MulAdd(radial, dz, qdz), rInv5, az);
}

template <std::size_t kTargets>
HWY_INLINE void cellPass(const CellListView& cells, const ListTargets& targets, std::size_t first, float eps2) {
    const FloatTag d;
    const std::size_t lanes = hn::Lanes(d);
    TargetRegisters<kTargets> held(d, targets, first);
    const FloatVector softening2 = hn::Set(d, eps2);
    for (std::size_t k = 0; k < cells.count; k += lanes) {
        const CellVectors cell{hn::LoadU(d, cells.mass + k),
                               hn::LoadU(d, cells.comX + k),
                               hn::LoadU(d, cells.comY + k),
                               hn::LoadU(d, cells.comZ + k),
                               hn::LoadU(d, cells.qxx + k),
                               hn::LoadU(d, cells.qyy + k),
                               hn::LoadU(d, cells.qzz + k),
                               hn::LoadU(d, cells.qxy + k),
                               hn::LoadU(d, cells.qxz + k),
                               hn::LoadU(d, cells.qyz + k),
                               hn::Mul(softening2, hn::LoadU(d, cells.secondMoment + k))};
        HWY_UNROLL(4)
        for (std::size_t t = 0; t < kTargets; ++t)
            addCellTerm(d, cell, held.x[t], held.y[t], held.z[t], softening2, held.ax[t], held.ay[t], held.az[t]);
    }
    held.addTo(d, targets, first);
}

} // namespace

constexpr std::size_t kTargetsPerSourcePass = 4;
constexpr std::size_t kTargetsPerCellPass = 2;

void AddSourceListAccelerations(const SourceListView& sources, const ListTargets& targets, float eps2) {
    static_assert(HWY_MAX_BYTES / sizeof(float) <= kInteractionListPadding, "lists are padded to whole vectors");
    if (sources.count == 0)
        return;
    for (std::size_t first = 0; first < targets.count; first += kTargetsPerSourcePass)
        sourcePass<kTargetsPerSourcePass>(sources, targets, first, eps2);
}

void AddCellListAccelerations(const CellListView& cells, const ListTargets& targets, float eps2) {
    if (cells.count == 0)
        return;
    for (std::size_t first = 0; first < targets.count; first += kTargetsPerCellPass)
        cellPass<kTargetsPerCellPass>(cells, targets, first, eps2);
}

const char* TargetName() {
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace gravlab
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gravlab {

HWY_EXPORT(AddSourceListAccelerations);
HWY_EXPORT(AddCellListAccelerations);
HWY_EXPORT(TargetName);

void addCellListAccelerations(const CellListView& cells, const ListTargets& targets, float eps2) {
    HWY_DYNAMIC_DISPATCH(AddCellListAccelerations)(cells, targets, eps2);
}

void addSourceListAccelerations(const SourceListView& sources, const ListTargets& targets, float eps2) {
    HWY_DYNAMIC_DISPATCH(AddSourceListAccelerations)(sources, targets, eps2);
}

const char* treeListsSimdTarget() {
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace gravlab
#endif
