#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <limits>
#include <stdexcept>
#include <string>

namespace gravlab {

void requireOrbSizes(std::uint64_t bodyCount, std::uint64_t domainCount) {
    if (bodyCount == 0 || bodyCount > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("ORB: the number of bodies is " + std::to_string(bodyCount) +
                                    ", allowed 1 to 4294967295");
    if (domainCount < 1 || domainCount > bodyCount)
        throw InvalidParameterError("orb-domains", "orb-domains = " + std::to_string(domainCount) +
                                                       " is out of range: allowed 1 to " + std::to_string(bodyCount) +
                                                       " (the number of bodies; every domain needs a body)");
}

} // namespace gravlab
