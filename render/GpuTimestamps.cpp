// GL timestamp queries in slots read a few frames late (see the header).
#include <gravlab/render/GpuTimestamps.hpp>

#include <stdexcept>
#include <string>

namespace gravlab {

GpuTimestamps::GpuTimestamps(std::size_t markCount)
    : m_markCount(markCount), m_queries(markCount * kFramesInFlight), m_recorded(m_queries.size(), false),
      m_slotUsed(kFramesInFlight, false) {
    if (markCount < 2)
        throw std::invalid_argument("GpuTimestamps needs at least 2 marks per frame, got " + std::to_string(markCount));
    glCreateQueries(GL_TIMESTAMP, static_cast<GLsizei>(m_queries.size()), m_queries.data());
}

GpuTimestamps::~GpuTimestamps() {
    glDeleteQueries(static_cast<GLsizei>(m_queries.size()), m_queries.data());
}

std::optional<std::vector<double>> GpuTimestamps::beginFrame() {
    m_slot = (m_slot + 1) % kFramesInFlight;
    if (!m_slotUsed[m_slot]) {
        m_slotUsed[m_slot] = true;
        return std::nullopt;
    }
    std::vector<double> milliseconds;
    std::optional<GLuint64> previous;
    for (std::size_t mark = 0; mark < m_markCount; ++mark) {
        const std::size_t query = m_slot * m_markCount + mark;
        std::optional<GLuint64> time = previous;
        if (m_recorded[query]) {
            GLuint64 nanoseconds = 0;
            glGetQueryObjectui64v(m_queries[query], GL_QUERY_RESULT, &nanoseconds);
            time = nanoseconds;
        }
        m_recorded[query] = false;
        if (mark > 0)
            milliseconds.push_back(time && previous ? 1e-6 * double(*time - *previous) : 0.0);
        previous = time;
    }
    return milliseconds;
}

void GpuTimestamps::mark(std::size_t index) {
    const std::size_t query = m_slot * m_markCount + index;
    glQueryCounter(m_queries[query], GL_TIMESTAMP);
    m_recorded[query] = true;
}

} // namespace gravlab
