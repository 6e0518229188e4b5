// The distributed step's limits (see DistributedSupport.hpp).
#include "distributed/DistributedSupport.hpp"

#include <string>

namespace gravlab {

void requireDistributedSupport(const SimParams& params) {
    const std::string ranks = " across MPI ranks is not supported yet: run it without mpirun";
    if (params.timeSteps.mode == TimeStepMode::Hierarchical)
        throw InvalidParameterError("time-steps", "hierarchical time steps" + ranks + ", or with --time-steps fixed");
    if (params.orb.domainCount > 0)
        throw InvalidParameterError("orb-domains", "ORB domains of one's own across MPI ranks are not supported: the "
                                                   "ranks' domains are automatic (one per rank; --orb-every and "
                                                   "--orb-balance steer them): run with --orb-domains 0");
    if (params.precision == Precision::Double)
        throw InvalidParameterError("precision", "double precision" + ranks + ", or with --precision single");
}

void requireDistributedPrecision(Precision precision) {
    SimParams asked;
    asked.precision = precision;
    requireDistributedSupport(asked);
}

} // namespace gravlab
