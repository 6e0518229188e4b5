#pragma once
// Who a device body is, and where a body with a given id is now: the identity half of DeviceBodies for the backends
// that keep their bodies on the device (CudaBackend, DistributedCudaBackend).
//
// Design note: the host tables (ids, components) stay in load order (DeviceBodies.hpp) and the device's loadOrder
// follows every permutation (ORB, migration), so a body at index i is idInLoadOrder[loadOrder[i]] (one 4-byte read)
// and a body with id X is found by one pass over loadOrder for X's load index (DeviceBodyInspection.hpp). The id to
// load index map is cached, since the same few ids (trails, the followed body) are asked every frame, and the search
// scratch is allocated once so that a per-frame lookup allocates nothing.
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBodyInspection.hpp"

#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace gravlab {

class DeviceBodyLookup {
public:
    /// Forgets the cached ids: call when the host tables change (a load).
    void reset() { m_loadIndexOfId.clear(); }
    /// Where id sits in the host tables (load order); empty when no body has it.
    std::optional<std::uint32_t> loadIndexOf(const DeviceBodies& bodies, std::uint64_t id);
    /// The identity of the body now at index (< bodies.size()); throws std::out_of_range otherwise. Waits for stream.
    BodyIdentity identityAt(const DeviceBodies& bodies, std::size_t index, cudaStream_t stream);
    /// Current positions of the bodies with these ids, empty where none has the id: one pass over the bodies, then
    /// one 16-byte copy per body found. Waits for stream.
    std::vector<std::optional<BodyPosition>> positions(const DeviceBodies& bodies, std::span<const std::uint64_t> ids,
                                                       cudaStream_t stream);
    /// The device words of the searches, for an inspection's own lookups.
    BodySearchScratch& scratch() { return m_search; }

private:
    std::unordered_map<std::uint64_t, std::optional<std::uint32_t>> m_loadIndexOfId;
    BodySearchScratch m_search;
};

} // namespace gravlab
