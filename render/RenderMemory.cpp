// What the particle path and the overlays hold per body and in all (see RenderMemory.hpp).
#include <gravlab/render/BodyVertexFeed.hpp>
#include <gravlab/render/ParticleRenderer.hpp>
#include <gravlab/render/RenderMemory.hpp>
#include <gravlab/render/WireBoxes.hpp>
#include <gravlab/sim/TreeView.hpp>

namespace gravlab {

CompanionMemory renderMemory() {
    CompanionMemory memory;
    memory.hostBytesPerBody = BodyVertexFeed::kHostStagingBytesPerBody;
    memory.besideBodiesBytesPerBody = ParticleRenderer::kVertexBytesPerBody;
    // The tree overlay at its cap: the feed's cells, the renderer's box staging and the box buffer, the last two
    // grown by doubling, so up to twice the boxes drawn.
    const std::uint64_t cells = TreeCellQuery{}.maxCells;
    memory.hostBytes = cells * (sizeof(TreeCellBox) + 2 * sizeof(WireBox) + 2 * sizeof(WireBox));
    return memory;
}

} // namespace gravlab
