// Identity and position lookups of device bodies through their load order (see DeviceBodyLookup.hpp).
#include "device/cuda/DeviceBodyLookup.hpp"

#include "device/cuda/CudaCheck.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {

std::optional<std::uint32_t> DeviceBodyLookup::loadIndexOf(const DeviceBodies& bodies, std::uint64_t id) {
    const auto cached = m_loadIndexOfId.find(id);
    if (cached != m_loadIndexOfId.end())
        return cached->second;
    const std::vector<std::uint64_t>& ids = bodies.idInLoadOrder;
    const auto loaded = std::find(ids.begin(), ids.end(), id);
    std::optional<std::uint32_t> index;
    if (loaded != ids.end())
        index = std::uint32_t(loaded - ids.begin());
    m_loadIndexOfId.emplace(id, index);
    return index;
}

BodyIdentity DeviceBodyLookup::identityAt(const DeviceBodies& bodies, std::size_t index, cudaStream_t stream) {
    if (index >= bodies.size())
        throw std::out_of_range("bodyIdentity: body " + std::to_string(index) + " of " + std::to_string(bodies.size()));
    std::uint32_t loadIndex = 0; // one 4-byte read: the host tables are in load order
    CUDA_CHECK(
        cudaMemcpyAsync(&loadIndex, bodies.loadOrder.data() + index, sizeof loadIndex, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return {bodies.idInLoadOrder[loadIndex], bodies.componentInLoadOrder[loadIndex]};
}

std::vector<std::optional<BodyPosition>>
DeviceBodyLookup::positions(const DeviceBodies& bodies, std::span<const std::uint64_t> ids, cudaStream_t stream) {
    std::vector<std::optional<BodyPosition>> positions(ids.size());
    if (ids.empty())
        return positions;
    std::vector<std::uint32_t> loadIndices;
    std::vector<std::size_t> askedFor; // which entry of ids each load index answers
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (const std::optional<std::uint32_t> loadIndex = loadIndexOf(bodies, ids[k])) {
            loadIndices.push_back(*loadIndex);
            askedFor.push_back(k);
        }
    const std::vector<std::optional<std::size_t>> indices =
        findBodiesByLoadOrder(bodies.loadOrder.data(), bodies.size(), loadIndices, m_search, stream);
    std::vector<float4> found(indices.size());
    for (std::size_t k = 0; k < indices.size(); ++k)
        if (indices[k])
            CUDA_CHECK(cudaMemcpyAsync(&found[k], bodies.positionMass.data() + *indices[k], sizeof(float4),
                                       cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t k = 0; k < indices.size(); ++k)
        if (indices[k])
            positions[askedFor[k]] = BodyPosition{found[k].x, found[k].y, found[k].z};
    return positions;
}

} // namespace gravlab
