// CPU octree summary: mass, centre of mass, traceless quadrupole and opening radius of every cell.
//
// Design note: see OctreeCpu.hpp. Levels are processed from the deepest to the root, OpenMP over the cells of a level,
// because an inner cell needs its children's moments. Everything is accumulated in fp64 and rounded to float once:
// a leaf takes its centre of mass first and then its quadrupole about it (two passes, so there is no cancellation
// between large sums of x^2 and com^2); an inner cell shifts each child's quadrupole to its own centre of mass with
// the parallel-axis theorem for the traceless quadrupole and the second moment,
//     Q = sum_c [ Q_c + m_c (3 d d^T - |d|^2 I) ],  T = sum_c [ T_c + m_c |d|^2 ],  d = com_c - com.
// A cell of zero mass (only massless bodies) puts its centre of mass at its geometric centre.
#include "core/Parallel.hpp"
#include "tree/OctreeCpu.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

struct MomentsFp64 {
    double mass;
    double comX, comY, comZ;
    double qxx, qyy, qzz, qxy, qxz, qyz;
    double secondMoment; ///< sum m |x - com|^2
};

/// Adds m (3 d d^T - |d|^2 I) to the quadrupole of moments and m |d|^2 to its second moment.
void addPointQuadrupole(MomentsFp64& moments, double mass, double dx, double dy, double dz) {
    const double d2 = dx * dx + dy * dy + dz * dz;
    moments.qxx += mass * (3 * dx * dx - d2);
    moments.qyy += mass * (3 * dy * dy - d2);
    moments.qzz += mass * (3 * dz * dz - d2);
    moments.qxy += mass * 3 * dx * dy;
    moments.qxz += mass * 3 * dx * dz;
    moments.qyz += mass * 3 * dy * dz;
    moments.secondMoment += mass * d2;
}

MomentsFp64 leafMoments(const OctreeCell& cell, const TreeOrderedBodies& bodies) {
    MomentsFp64 moments{};
    double sumX = 0, sumY = 0, sumZ = 0;
    const std::uint32_t end = cell.firstBody + cell.bodyCount;
    for (std::uint32_t slot = cell.firstBody; slot < end; ++slot) {
        const double m = bodies.mass[slot];
        moments.mass += m;
        sumX += m * bodies.x[slot];
        sumY += m * bodies.y[slot];
        sumZ += m * bodies.z[slot];
    }
    const bool massive = moments.mass > 0;
    moments.comX = massive ? sumX / moments.mass : cell.centerX;
    moments.comY = massive ? sumY / moments.mass : cell.centerY;
    moments.comZ = massive ? sumZ / moments.mass : cell.centerZ;
    for (std::uint32_t slot = cell.firstBody; slot < end; ++slot)
        addPointQuadrupole(moments, bodies.mass[slot], bodies.x[slot] - moments.comX, bodies.y[slot] - moments.comY,
                           bodies.z[slot] - moments.comZ);
    return moments;
}

MomentsFp64 innerMoments(const OctreeCell& cell, const std::vector<MomentsFp64>& cellMoments) {
    MomentsFp64 moments{};
    double sumX = 0, sumY = 0, sumZ = 0;
    const auto first = std::size_t(cell.firstChild), end = first + std::size_t(cell.childCount);
    for (std::size_t child = first; child < end; ++child) {
        const MomentsFp64& c = cellMoments[child];
        moments.mass += c.mass;
        sumX += c.mass * c.comX;
        sumY += c.mass * c.comY;
        sumZ += c.mass * c.comZ;
    }
    const bool massive = moments.mass > 0;
    moments.comX = massive ? sumX / moments.mass : cell.centerX;
    moments.comY = massive ? sumY / moments.mass : cell.centerY;
    moments.comZ = massive ? sumZ / moments.mass : cell.centerZ;
    for (std::size_t child = first; child < end; ++child) {
        const MomentsFp64& c = cellMoments[child];
        moments.qxx += c.qxx;
        moments.qyy += c.qyy;
        moments.qzz += c.qzz;
        moments.qxy += c.qxy;
        moments.qxz += c.qxz;
        moments.qyz += c.qyz;
        moments.secondMoment += c.secondMoment;
        addPointQuadrupole(moments, c.mass, c.comX - moments.comX, c.comY - moments.comY, c.comZ - moments.comZ);
    }
    return moments;
}

CellMultipole toFloat(const MomentsFp64& m) {
    return {float(m.mass), float(m.comX), float(m.comY), float(m.comZ), float(m.qxx),         float(m.qyy),
            float(m.qzz),  float(m.qxy),  float(m.qxz),  float(m.qyz),  float(m.secondMoment)};
}

} // namespace

void OctreeCpu::summarize(float openingAngle) {
    if (!(openingAngle > 0))
        throw std::invalid_argument("octree summary: opening angle " + std::to_string(openingAngle) +
                                    " must be positive");
    m_openingAngle = openingAngle;
    const std::size_t cellCount = m_cells.size();
    std::vector<MomentsFp64> moments(cellCount);
    for (std::size_t level = m_levelBegin.empty() ? 0 : m_levelBegin.size() - 1; level-- > 0;) {
        const auto begin = std::int64_t(m_levelBegin[level]), end = std::int64_t(m_levelBegin[level + 1]);
#pragma omp parallel for schedule(dynamic, 64) if (parallel : end - begin >= kMinBodiesForParallelSampling)
        for (std::int64_t c = begin; c < end; ++c) {
            const OctreeCell& cell = m_cells[std::size_t(c)];
            moments[std::size_t(c)] = cell.isLeaf() ? leafMoments(cell, m_ordered) : innerMoments(cell, moments);
        }
    }
    m_multipoles.resize(cellCount);
    m_openingRadiusSquared.resize(cellCount);
    m_relativeErrorScale.resize(cellCount);
    const auto signedCount = std::int64_t(cellCount);
#pragma omp parallel for schedule(static) if (parallel : signedCount >= kMinBodiesForParallelStreaming)
    for (std::int64_t c = 0; c < signedCount; ++c) {
        const auto cell = std::size_t(c);
        m_multipoles[cell] = toFloat(moments[cell]);
        const double offset =
            std::hypot(moments[cell].comX - m_cells[cell].centerX, moments[cell].comY - m_cells[cell].centerY,
                       moments[cell].comZ - m_cells[cell].centerZ);
        const float radius = openingRadius(2 * m_cells[cell].halfSize, float(offset), m_openingAngle);
        m_openingRadiusSquared[cell] = radius * radius;
        m_relativeErrorScale[cell] = relativeErrorScale(m_multipoles[cell].mass, 2 * m_cells[cell].halfSize);
    }
}

} // namespace gravlab
