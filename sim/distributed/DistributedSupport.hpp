#pragma once
// What a run across ranks does not do yet, refused before any work with the flag to change.
//
// Design note: the distributed backends (CPU and CUDA) share the step's limits, so the check lives once here and the
// app calls it before it builds anything: a refused run costs nothing and names what to change.
#include <gravlab/sim/SimParams.hpp>

namespace gravlab {

/// Throws InvalidParameterError naming the flag when params ask for what the distributed step does not do yet:
/// hierarchical time steps, ORB domains of one's own (the ranks' are automatic), double precision.
void requireDistributedSupport(const SimParams& params);

/// A distributed backend's setPrecision: single precision is what it keeps; double throws as above.
void requireDistributedPrecision(Precision precision);

} // namespace gravlab
