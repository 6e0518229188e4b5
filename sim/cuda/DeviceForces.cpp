#include "DeviceForces.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {

float scaledSoftening2(const GravityParams& gravity) {
    const double softening = gravity.softeningLength;
    // eps > 0 keeps the self-interaction term (x_j - x_i = 0) at exactly zero instead of 0 * inf.
    if (!(softening > 0.0 && softening < 1e18))
        throw std::invalid_argument("the CUDA force kernels need a softening length in (0, 1e18), got " +
                                    std::to_string(softening));
    const double scaled = softening * 0x1p-20;
    return static_cast<float>(scaled * scaled);
}

void requireCudaSolver(SolverKind solver) {
    switch (solver) {
    case SolverKind::Direct:
    case SolverKind::DirectSymmetric:
    case SolverKind::Tree:
        return;
    }
    throw std::invalid_argument("the CUDA core has no solver '" + std::string(toString(solver)) + "'");
}

void launchForces(SolverKind solver, const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                  const GravityParams& gravity, cudaStream_t stream) {
    switch (solver) {
    case SolverKind::Direct:
        launchDirectForces(positionMass, acceleration, bodyCount, gravity, stream);
        return;
    case SolverKind::DirectSymmetric:
        launchDirectSymmetricForces(positionMass, acceleration, bodyCount, gravity, stream);
        return;
    case SolverKind::Tree:
        throw std::invalid_argument("launchForces: the tree solver builds its octree first; it runs through "
                                    "DeviceTree (CudaBackend)");
    }
    requireCudaSolver(solver);
}

} // namespace gravlab
