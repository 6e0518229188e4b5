// Registration of the fp64 direct sum and its CPU implementation; the GPU one is cuda/DirectFp64Solver.cu.
//
// Design note: on the CPU the sum is the test oracle's (computeAccelerationsFp64, DirectSumCpu.hpp), which reads the
// position pairs in double precision. Its fp64 result is kept as float-float pairs (high in the accelerations, low
// parts read by the backend), since rounding the accelerations to float alone would put back the float error the
// double state removes: on a Kepler binary at e = 0.9 and 1000 steps per period, 20 periods end with an energy error
// of 7e-7 with float accelerations against 4e-13 with the pairs (a standalone fp64 integration of the same steps).
#include "core/Stopwatch.hpp"
#include "solvers/CpuForceSolver.hpp"
#include "solvers/SolverRegistration.hpp"

#include <gravlab/sim/Precision.hpp>

#include <span>
#include <vector>

namespace gravlab {

std::unique_ptr<CudaForceSolver> makeDirectFp64CudaSolver();

namespace {

class DirectFp64CpuSolver final : public CpuForceSolver {
public:
    void computeAccelerations(const Bodies& bodies, const ForceParams& params, Vec3Arrays<float>& accelerations,
                              std::vector<float>& work, std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        Vec3Arrays<double> sums;
        computeAccelerationsFp64(bodies, params.gravity, sums);
        const std::size_t count = bodies.size();
        accelerations.resize(count);
        m_lowParts.resize(bodies.hasLowParts() ? count : 0);
        for (std::size_t i = 0; i < count; ++i) {
            store(sums.x[i], accelerations.x[i], m_lowParts.x, i);
            store(sums.y[i], accelerations.y[i], m_lowParts.y, i);
            store(sums.z[i], accelerations.z[i], m_lowParts.z, i);
        }
        work.assign(count, float(count));
        addPhaseTime(times, "force", force.elapsedMilliseconds());
    }

    /// Hierarchical time steps run in single precision only (validateSimParams), so the targets' sums are kept as
    /// floats and no low parts.
    void computeAccelerationsOf(const Bodies& bodies, const ForceParams& params, std::span<const std::uint32_t> targets,
                                Vec3Arrays<float>& accelerations, std::vector<float>& work,
                                std::vector<PhaseTiming>& times) override {
        const Stopwatch force;
        const std::vector<std::size_t> indices(targets.begin(), targets.end());
        Vec3Arrays<double> sums;
        computeAccelerationsFp64(bodies, params.gravity, indices, sums);
        for (std::size_t k = 0; k < indices.size(); ++k) {
            accelerations.x[indices[k]] = float(sums.x[k]);
            accelerations.y[indices[k]] = float(sums.y[k]);
            accelerations.z[indices[k]] = float(sums.z[k]);
            work[indices[k]] = float(bodies.size());
        }
        m_lowParts.resize(0);
        addPhaseTime(times, "force", force.elapsedMilliseconds());
    }

    bool readAccelerationLowParts(Vec3Arrays<float>& out) const override {
        if (m_lowParts.size() == 0)
            return false;
        out = m_lowParts;
        return true;
    }

    void invalidate() override { m_lowParts.resize(0); }

private:
    static void store(double sum, float& high, std::vector<float>& low, std::size_t i) {
        const FloatPair pair = splitDouble(sum);
        high = pair.high;
        if (!low.empty())
            low[i] = pair.low;
    }

    Vec3Arrays<float> m_lowParts; ///< of the last evaluation; empty when its bodies were in single precision
};

std::unique_ptr<CpuForceSolver> makeDirectFp64CpuSolver() {
    return std::make_unique<DirectFp64CpuSolver>();
}

} // namespace

SolverRegistration directFp64SolverRegistration() {
    return {{.name = "direct-fp64",
             .description = "all pairs in double precision, O(N^2): the reference, at fp64 speed",
             .allPairs = true,
             .cpuPhases = {"force"},
             .cudaPhases = {"force"},
             .cpuScratchBytesPerBody = 3 * sizeof(double) + 3 * sizeof(float)},
            &makeDirectFp64CpuSolver,
            GRAVLAB_CUDA_FACTORY(makeDirectFp64CudaSolver)};
}

} // namespace gravlab
