#pragma once
// Trails: a bounded history of positions for each of a few chosen bodies, to be drawn as fading lines.
//
// Design note: at most kMaxTrails bodies, each with a ring buffer of kSamplesPerTrail positions (12 KiB each), so
// memory and the per-frame upload stay fixed however long the run. A body is tracked by its 64-bit id (ORB reorders
// the bodies); the viewer asks the backend for all trail positions at once (bodyPositions) and records one sample per
// frame in which the simulation stepped, so a paused view does not fill a trail with copies of one point. A body that
// is gone (its id not found) records nothing. New bodies (reset, reload) clear every trail. GL-free and tested;
// render/TrailRenderer.hpp draws what oldestFirst() returns.
#include <gravlab/sim/BodyInspection.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gravlab {

class TrailHistory {
public:
    static constexpr std::size_t kMaxTrails = 8;
    static constexpr std::size_t kSamplesPerTrail = 1024;

    /// Starts a trail for id; false (nothing changes) when it has one already or kMaxTrails are in use.
    bool add(BodyIdentity body);
    /// Drops id's trail, if any.
    void remove(std::uint64_t id);
    /// Drops every trail (new bodies).
    void clear() { m_trails.clear(); }
    /// Empties every trail's samples but keeps the bodies (e.g. after time reversal, so no line jumps).
    void clearSamples();

    std::size_t size() const { return m_trails.size(); }
    bool empty() const { return m_trails.empty(); }
    /// The ids of the trails, in the order they were added (the order record() expects positions in).
    std::vector<std::uint64_t> ids() const;
    BodyIdentity body(std::size_t trail) const { return m_trails.at(trail).body; }
    std::size_t sampleCount(std::size_t trail) const { return m_trails.at(trail).count; }

    /// Appends one sample per trail: positions[k] for trail k (ids() order); an empty entry appends nothing. Throws
    /// std::invalid_argument when positions does not have one entry per trail.
    void record(std::span<const std::optional<BodyPosition>> positions);
    /// Trail's samples from oldest to newest into out (replaced).
    void oldestFirst(std::size_t trail, std::vector<BodyPosition>& out) const;

private:
    struct Trail {
        BodyIdentity body;
        std::vector<BodyPosition> samples; ///< ring buffer of kSamplesPerTrail
        std::size_t next = 0;              ///< where the next sample goes
        std::size_t count = 0;             ///< samples held, at most kSamplesPerTrail
    };
    std::vector<Trail> m_trails;
};

} // namespace gravlab
