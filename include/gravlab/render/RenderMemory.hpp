#pragma once
// The memory the render side keeps next to the simulation's bodies, for the check before a run (sim's MemoryBudget).
//
// Design note: sim estimates its own buffers; what the particle path and the overlays hold is known here, from the
// owners' constants: the feed's host staging array (BodyVertexFeed), the vertex buffer (ParticleRenderer), which lives
// beside the bodies: on the GPU when they are there (interop writes it in place), on the host otherwise (a machine
// without a GPU draws through Mesa's llvmpipe, whose buffers are host memory, and that is where the particle draw ran
// out of memory before this check existed), and the tree overlay at its cell cap. The ORB boxes (at most 2047 cells)
// are small enough to leave out.
#include <gravlab/sim/MemoryBudget.hpp>

namespace gravlab {

/// Per body and in all, wherever the bodies live.
CompanionMemory renderMemory();

} // namespace gravlab
