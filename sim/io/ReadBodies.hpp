#pragma once
// What every snapshot reader does with the bodies it fills: sizes them with an error that names the count when memory
// runs out, and checks each body as it is read.
//
// Design note: the checks are the same for every format (finite positions, velocities and masses, masses > 0), so
// their wording is too: "mass -1 is not positive (dark record 17)". The test is inline and cheap, run once per body in
// the readers' loops; building the message, the rare path, is out of line and the place ("dark record 17", "line 5")
// is only formatted then, by a callable the reader passes.
#include <gravlab/sim/Bodies.hpp>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>

namespace gravlab::io {

/// bodies.resize(count), turning std::bad_alloc into SnapshotError "not enough memory for N bodies (X GB)".
void allocateBodies(Bodies& bodies, std::size_t count, const std::filesystem::path& file);

/// The shortest text that reads back as the same float ("-1", "1e-45", "nan", "inf").
std::string floatText(float value);

/// Throws SnapshotError naming the first bad value of body index: "vx is nan", "mass -1 is not positive".
[[noreturn]] void throwBadBody(const Bodies& bodies, std::size_t index, const std::filesystem::path& file,
                               const std::string& where);

inline bool bodyIsValid(const Bodies& bodies, std::size_t i) {
    return std::isfinite(bodies.x[i]) && std::isfinite(bodies.y[i]) && std::isfinite(bodies.z[i]) &&
           std::isfinite(bodies.vx[i]) && std::isfinite(bodies.vy[i]) && std::isfinite(bodies.vz[i]) &&
           std::isfinite(bodies.mass[i]) && bodies.mass[i] > 0;
}

/// Checks body i; where() says where it was read from ("dark record 17") and is called only when it is bad.
template <typename DescribeWhere>
inline void checkBody(const Bodies& bodies, std::size_t i, const std::filesystem::path& file, DescribeWhere&& where) {
    if (!bodyIsValid(bodies, i))
        throwBadBody(bodies, i, file, where());
}

} // namespace gravlab::io
