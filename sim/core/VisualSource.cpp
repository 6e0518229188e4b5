// The device write of sources whose bodies live on the host.
#include <gravlab/sim/VisualSource.hpp>

#include <stdexcept>

namespace gravlab {

void VisualSource::writeVerticesOnDevice(RenderVertex*, std::size_t, StreamHandle) const {
    throw std::logic_error("writeVerticesOnDevice: this visual source has no device state (check "
                           "canWriteVerticesOnDevice() first)");
}

} // namespace gravlab
