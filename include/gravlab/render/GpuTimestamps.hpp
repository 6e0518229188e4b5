#pragma once
// GPU time between marks in a frame, from GL timestamp queries, read back a few frames later without stalling.
//
// Design note: glQueryCounter(GL_TIMESTAMP) records when the GPU reaches a point of the command stream, so the
// difference of two marks is the GPU time the commands between them took (plus any time the GPU sat idle there).
// Reading a result the GPU has not produced yet would wait for it, so each frame's queries live in one of
// kFramesInFlight slots and are read only when that slot comes round again: by then the GPU has long passed them
// (the frame loop keeps at most two frames queued). The query names are owned here and deleted with the object, so it
// must die while its context is current.
#include <cstddef>
#include <glad/gl.h>
#include <optional>
#include <vector>

namespace gravlab {

class GpuTimestamps {
public:
    static constexpr std::size_t kFramesInFlight = 4;

    /// markCount marks per frame (at least 2).
    explicit GpuTimestamps(std::size_t markCount);
    ~GpuTimestamps();
    GpuTimestamps(const GpuTimestamps&) = delete;
    GpuTimestamps& operator=(const GpuTimestamps&) = delete;

    /// Starts a frame: returns the milliseconds between consecutive marks of the frame kFramesInFlight - 1 frames ago
    /// that used this slot (markCount - 1 values), or nothing for the first frames. A mark not recorded in that frame
    /// counts as at the previous mark.
    std::optional<std::vector<double>> beginFrame();
    /// Records mark index (in 0 .. markCount - 1) of the current frame.
    void mark(std::size_t index);

private:
    std::size_t m_markCount;
    std::vector<GLuint> m_queries;            ///< kFramesInFlight slots of markCount queries
    std::vector<bool> m_recorded;             ///< per query: recorded in the slot's frame
    std::vector<bool> m_slotUsed;             ///< per slot: holds a frame not read yet
    std::size_t m_slot = kFramesInFlight - 1; ///< current slot; beginFrame() moves it on
};

} // namespace gravlab
