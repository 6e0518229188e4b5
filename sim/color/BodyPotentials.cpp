// The CPU potential source (BodyPotentials.hpp).
#include "color/BodyPotentials.hpp"

namespace gravlab {

bool computeBodyPotentialsCpu(const Bodies&, const GravityParams&, std::vector<float>&, std::string& reason) {
    reason = "per-body potentials are not computed by this build yet";
    return false;
}

} // namespace gravlab
