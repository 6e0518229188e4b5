// The host side of the coincident-pair record (CoincidenceRecord.hpp).
#include "direct/cuda/CoincidenceRecord.hpp"

#include "device/cuda/CudaCheck.hpp"

#include <vector>

namespace gravlab {

CoincidenceOutput CoincidenceReport::arm(const std::uint32_t* loadOrder, cudaStream_t stream) {
    if (m_record.size() == 0) {
        m_record.resize(1);
        m_record.zero(stream);
    }
    m_armed = true;
    return {m_record.data(), loadOrder};
}

std::optional<CoincidenceRecord> CoincidenceReport::take(cudaStream_t stream) {
    if (!m_armed)
        return std::nullopt;
    std::vector<CoincidenceRecord> record(1);
    m_record.download(record, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_armed = false;
    if (record[0].found == 0)
        return std::nullopt;
    m_record.zero(stream);
    return record[0];
}

} // namespace gravlab
