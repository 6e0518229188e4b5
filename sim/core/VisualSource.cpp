// The device write of sources whose bodies live on the host.
#include <gravlab/sim/VisualSource.hpp>

#include <stdexcept>

namespace gravlab {

void VisualSource::writeVerticesOnDevice(RenderVertex*, std::size_t, StreamHandle) const {
    throw std::logic_error("writeVerticesOnDevice: this visual source has no device state (check "
                           "canWriteVerticesOnDevice() first)");
}

void VisualSource::writeVerticesToGlBuffer(GlBufferName, std::size_t) const {
    throw std::logic_error("writeVerticesToGlBuffer: this visual source has no state in GL buffers (check "
                           "canWriteVerticesToGlBuffer() first)");
}

} // namespace gravlab
