#include "direct/cuda/DeviceForces.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {

float scaledSoftening2(const GravityParams& gravity) {
    const double softening = gravity.softeningLength;
    // eps > 0 keeps the self-interaction term (x_j - x_i = 0) at exactly zero instead of 0 * inf; eps = 0 runs the
    // kernels' Newtonian variant, which selects that term away.
    if (!(softening >= 0.0 && softening < 1e18))
        throw std::invalid_argument("the CUDA force kernels need a softening length in [0, 1e18), got " +
                                    std::to_string(softening));
    const double scaled = softening * 0x1p-20;
    return static_cast<float>(scaled * scaled);
}

} // namespace gravlab
