// Allocation and per-body checks shared by the snapshot readers (see ReadBodies.hpp).
#include "io/ReadBodies.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <array>
#include <charconv>
#include <cstdio>
#include <new>
#include <utility>

namespace gravlab::io {

void allocateBodies(Bodies& bodies, std::size_t count, const std::filesystem::path& file) {
    try {
        bodies.resize(count);
    } catch (const std::bad_alloc&) {
        bodies = Bodies{}; // give back what was allocated before the failure
        char gigabytes[32];
        std::snprintf(gigabytes, sizeof gigabytes, "%.1f", double(count) * double(Bodies::kBytesPerBody) / 1e9);
        throw SnapshotError(file, "not enough memory for " + std::to_string(count) + " bodies (" + gigabytes + " GB)");
    }
}

std::string floatText(float value) {
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
    return std::string(text.data(), end);
}

void throwBadBody(const Bodies& bodies, std::size_t index, const std::filesystem::path& file,
                  const std::string& where) {
    const std::array<std::pair<const char*, float>, 7> values{{{"mass", bodies.mass[index]},
                                                               {"x", bodies.x[index]},
                                                               {"y", bodies.y[index]},
                                                               {"z", bodies.z[index]},
                                                               {"vx", bodies.vx[index]},
                                                               {"vy", bodies.vy[index]},
                                                               {"vz", bodies.vz[index]}}};
    for (const auto& [name, value] : values)
        if (!std::isfinite(value))
            throw SnapshotError(file, std::string(name) + " is " + floatText(value) + ", not a finite number", where);
    throw SnapshotError(file, "mass " + floatText(bodies.mass[index]) + " is not positive", where);
}

} // namespace gravlab::io
