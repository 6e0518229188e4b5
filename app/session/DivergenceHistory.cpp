// The divergence ring buffer (see DivergenceHistory.hpp).
#include "DivergenceHistory.hpp"

#include <cmath>

namespace gravlab {

const DivergenceSample* DivergenceHistory::latestWithEnergies() const {
    for (std::size_t i = size(); i-- > 0;)
        if (!std::isnan((*this)[i].energyErrorA))
            return &(*this)[i];
    return nullptr;
}

} // namespace gravlab
