#pragma once
// Which GPU a rank runs on: GPU k of its host for the host's k-th rank.
//
// Design note: NCCL needs one GPU per rank, so the choice must be made before anything touches a device (a CUDA
// context on the wrong GPU costs memory there) and must be agreed by all ranks, since they either all step on GPUs or
// all on CPUs. The host-local rank comes from the launcher's environment (OpenMPI's OMPI_COMM_WORLD_LOCAL_RANK and
// _SIZE; without them the ranks are taken to share one host).
#include <gravlab/sim/Communicator.hpp>

#include <string>

namespace gravlab {

/// Collective: makes this rank's GPU current when every rank has one of its own that can run this build's code, and
/// returns an empty string; otherwise returns why not (no device is selected then), the same verdict on every rank.
std::string selectRankDevice(Communicator& world);

/// Makes this rank's GPU current when the host has one for it, without communicating, so that what probes the device
/// before a backend exists (the memory check of a run, whether CUDA would be chosen) touches this rank's GPU and not
/// GPU 0 on every rank. world supplies the rank when the launcher's environment does not.
void preferRankDevice(const Communicator& world);

} // namespace gravlab
