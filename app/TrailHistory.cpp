// Ring buffers of positions for a few bodies, recorded once per stepped frame.
#include "TrailHistory.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {

bool TrailHistory::add(BodyIdentity body) {
    const bool present =
        std::any_of(m_trails.begin(), m_trails.end(), [&](const Trail& trail) { return trail.body.id == body.id; });
    if (present || m_trails.size() >= kMaxTrails)
        return false;
    m_trails.push_back({body, std::vector<BodyPosition>(kSamplesPerTrail), 0, 0});
    return true;
}

void TrailHistory::remove(std::uint64_t id) {
    std::erase_if(m_trails, [&](const Trail& trail) { return trail.body.id == id; });
}

void TrailHistory::clearSamples() {
    for (Trail& trail : m_trails) {
        trail.next = 0;
        trail.count = 0;
    }
}

std::vector<std::uint64_t> TrailHistory::ids() const {
    std::vector<std::uint64_t> ids;
    for (const Trail& trail : m_trails)
        ids.push_back(trail.body.id);
    return ids;
}

void TrailHistory::record(std::span<const std::optional<BodyPosition>> positions) {
    if (positions.size() != m_trails.size())
        throw std::invalid_argument("trails: " + std::to_string(positions.size()) + " positions for " +
                                    std::to_string(m_trails.size()) + " trails");
    for (std::size_t k = 0; k < m_trails.size(); ++k) {
        if (!positions[k])
            continue;
        Trail& trail = m_trails[k];
        trail.samples[trail.next] = *positions[k];
        trail.next = (trail.next + 1) % kSamplesPerTrail;
        trail.count = std::min(trail.count + 1, kSamplesPerTrail);
    }
}

void TrailHistory::oldestFirst(std::size_t trail, std::vector<BodyPosition>& out) const {
    const Trail& held = m_trails.at(trail);
    out.resize(held.count);
    const std::size_t oldest = (held.next + kSamplesPerTrail - held.count) % kSamplesPerTrail;
    for (std::size_t k = 0; k < held.count; ++k)
        out[k] = held.samples[(oldest + k) % kSamplesPerTrail];
}

} // namespace gravlab
