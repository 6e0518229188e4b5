// The coincident-pair error and the partner search (see CoincidentBodies.hpp).
#include <gravlab/sim/CoincidentBodies.hpp>

#include <limits>
#include <sstream>
#include <string>

namespace gravlab {
namespace {

std::string describeCoincidentPair(const CoincidentPair& pair, std::uint64_t restoredStep) {
    std::ostringstream text;
    text.precision(9);
    text << "bodies " << pair.firstId << " and " << pair.secondId << " are at the same position (" << pair.position[0]
         << ", " << pair.position[1] << ", " << pair.position[2]
         << ") and softening is 0, so the force between them is infinite; the state was restored to step "
         << restoredStep << ". Set a softening > 0 or move one of them.";
    return text.str();
}

} // namespace

CoincidentBodiesError::CoincidentBodiesError(const CoincidentPair& pair, std::uint64_t restoredStep)
    : std::runtime_error(describeCoincidentPair(pair, restoredStep)), m_pair(pair) {}

std::size_t nearestOtherBody(std::span<const float> x, std::span<const float> y, std::span<const float> z,
                             std::size_t index) {
    std::size_t nearest = index == 0 ? 1 : 0;
    double nearestDistance2 = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < x.size(); ++j) {
        if (j == index)
            continue;
        const double dx = double(x[j]) - x[index], dy = double(y[j]) - y[index], dz = double(z[j]) - z[index];
        const double distance2 = dx * dx + dy * dy + dz * dz;
        if (distance2 < nearestDistance2) {
            nearestDistance2 = distance2;
            nearest = j;
        }
    }
    return nearest;
}

} // namespace gravlab
