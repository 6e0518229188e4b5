// Tipsy snapshots in both byte orders (the two variants are described in Snapshot.hpp).
//
// Design note: the layout, as pkdgrav, ChaNGa and gasoline write it (XDR, big-endian) and as Bonsai and NVIDIA's
// nbody sample dump it from C structs (native, little-endian):
//   header  double time; int32 nbodies, ndim, nsph, ndark, nstar       28 bytes; 32 where padded to 8-byte alignment
//   gas     float mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi (12 floats) -> component 0
//   dark    float mass, pos[3], vel[3], eps, phi                        ( 9 floats) -> component 1
//   star    float mass, pos[3], vel[3], metals, tform, eps, phi         (11 floats) -> component 4
// XDR tipsy has the 28-byte header and no ids: a body's id is its record's index in the file. The native variant has
// the padded header and stores the particle id as an int32 in each record's last field (phi). Either header size is
// accepted in either byte order, whichever makes the file size exact, since some XDR writers pad too.
//
// Reading checks the header's counts (in 64 bits, so no sum overflows) and the exact file size before anything is
// allocated, so a corrupt or hostile header costs nothing; then each record block is converted in one pass (byte
// swap, copy, check). Writing groups the bodies by component (0 gas, 4 star, everything else dark), keeping their
// order within each group, and converts records into a 4 MB buffer handed whole to AtomicFile::write: a few hundred
// large writes for 16M bodies instead of a hundred million small ones. Fields Gravlab does not keep (rho, temp, eps,
// phi, ...) are written as 0.
#include "io/MappedFile.hpp"
#include "io/ReadBodies.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/EnumNames.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace gravlab::io {
namespace {

constexpr std::size_t kHeaderBytes = 28;
constexpr std::size_t kPaddedHeaderBytes = 32;
constexpr std::size_t kWriteBufferBytes = std::size_t{4} << 20;

struct RecordKind {
    const char* name;
    std::size_t floatCount;
    std::uint8_t component;
};
/// In file order.
constexpr std::array<RecordKind, 3> kRecordKinds{
    {{"gas", 12, kGasComponent}, {"dark", 9, kDarkMatterComponent}, {"star", 11, kStarComponent}}};

/// Index into kRecordKinds of the records a body of this component is written as.
std::size_t recordKindFor(std::uint8_t component) {
    return component == kGasComponent ? 0 : component == kStarComponent ? 2 : 1;
}

SnapshotFormat formatFor(ByteOrder order) {
    return order == ByteOrder::Big ? SnapshotFormat::Tipsy : SnapshotFormat::TipsyNative;
}

/// Whether words of this file order must be swapped on this machine.
template <ByteOrder order>
constexpr bool kSwap = (order == ByteOrder::Big) != (std::endian::native == std::endian::big);

template <ByteOrder order> std::uint32_t loadWord(const std::byte* at) {
    std::uint32_t word;
    std::memcpy(&word, at, sizeof word);
    if constexpr (kSwap<order>)
        word = __builtin_bswap32(word);
    return word;
}

template <ByteOrder order> void storeWord(std::byte* at, std::uint32_t word) {
    if constexpr (kSwap<order>)
        word = __builtin_bswap32(word);
    std::memcpy(at, &word, sizeof word);
}

template <ByteOrder order> double loadDouble(const std::byte* at) {
    std::uint64_t word;
    std::memcpy(&word, at, sizeof word);
    if constexpr (kSwap<order>)
        word = __builtin_bswap64(word);
    return std::bit_cast<double>(word);
}

template <ByteOrder order> void storeDouble(std::byte* at, double value) {
    auto word = std::bit_cast<std::uint64_t>(value);
    if constexpr (kSwap<order>)
        word = __builtin_bswap64(word);
    std::memcpy(at, &word, sizeof word);
}

template <ByteOrder order> float loadFloat(const std::byte* at) {
    return std::bit_cast<float>(loadWord<order>(at));
}

struct TipsyHeader {
    double time = 0;
    std::int64_t nbodies = 0;
    std::int64_t ndim = 0;
    std::array<std::int64_t, 3> counts{}; ///< nsph, ndark, nstar (kRecordKinds order)

    std::int64_t recordBytes() const {
        std::int64_t bytes = 0;
        for (std::size_t kind = 0; kind < kRecordKinds.size(); ++kind)
            bytes += counts[kind] * std::int64_t(kRecordKinds[kind].floatCount * sizeof(float));
        return bytes;
    }
    std::string describe() const {
        return "header: nbodies " + std::to_string(nbodies) + ", ndim " + std::to_string(ndim) + ", nsph " +
               std::to_string(counts[0]) + ", ndark " + std::to_string(counts[1]) + ", nstar " +
               std::to_string(counts[2]);
    }
};

/// Needs kHeaderBytes at `at`.
template <ByteOrder order> TipsyHeader decodeHeader(const std::byte* at) {
    TipsyHeader header;
    header.time = loadDouble<order>(at);
    const auto field = [&](std::size_t index) {
        return std::int64_t(std::int32_t(loadWord<order>(at + 8 + 4 * index)));
    };
    header.nbodies = field(0);
    header.ndim = field(1);
    for (std::size_t kind = 0; kind < kRecordKinds.size(); ++kind)
        header.counts[kind] = field(2 + kind);
    return header;
}

TipsyHeader decodeHeader(const std::byte* at, ByteOrder order) {
    return order == ByteOrder::Big ? decodeHeader<ByteOrder::Big>(at) : decodeHeader<ByteOrder::Little>(at);
}

/// Why the counts make no sense, or an empty string when they do.
std::string headerProblem(const TipsyHeader& header) {
    if (header.ndim != 3)
        return "ndim is " + std::to_string(header.ndim) + ", not 3";
    if (std::any_of(header.counts.begin(), header.counts.end(), [](std::int64_t count) { return count < 0; }))
        return "a count is negative";
    const std::int64_t sum = header.counts[0] + header.counts[1] + header.counts[2];
    if (header.nbodies != sum)
        return "nbodies " + std::to_string(header.nbodies) + " is not nsph + ndark + nstar = " + std::to_string(sum);
    if (std::uint64_t(header.nbodies) > kMaxSnapshotBodies)
        return std::to_string(header.nbodies) + " bodies: more than the " + std::to_string(kMaxSnapshotBodies) +
               " a snapshot may hold";
    return {};
}

/// The header's size: whichever of 28 and 32 bytes makes the file size exact. Throws naming both sizes otherwise.
std::size_t headerBytesFor(const TipsyHeader& header, std::size_t fileBytes, ByteOrder order,
                           const std::filesystem::path& file) {
    const auto records = std::uint64_t(header.recordBytes());
    if (fileBytes == kHeaderBytes + records)
        return kHeaderBytes;
    if (fileBytes == kPaddedHeaderBytes + records)
        return kPaddedHeaderBytes;
    const std::uint64_t needed = (order == ByteOrder::Big ? kHeaderBytes : kPaddedHeaderBytes) + records;
    const std::string sizes = std::to_string(fileBytes) + " bytes, the header's counts need " + std::to_string(needed);
    throw SnapshotError(file, fileBytes < needed ? "truncated: " + sizes : "too long: " + sizes, header.describe());
}

template <ByteOrder order>
void decodeRecords(const std::byte* at, const TipsyHeader& header, Bodies& bodies, const std::filesystem::path& file) {
    std::size_t body = 0;
    for (std::size_t kind = 0; kind < kRecordKinds.size(); ++kind) {
        const RecordKind& recordKind = kRecordKinds[kind];
        const std::size_t recordBytes = recordKind.floatCount * sizeof(float);
        const float colorKey = componentColorKey(recordKind.component);
        for (std::int64_t record = 0; record < header.counts[kind]; ++record, ++body, at += recordBytes) {
            const auto where = [&] { return std::string(recordKind.name) + " record " + std::to_string(record); };
            bodies.mass[body] = loadFloat<order>(at);
            bodies.x[body] = loadFloat<order>(at + 4);
            bodies.y[body] = loadFloat<order>(at + 8);
            bodies.z[body] = loadFloat<order>(at + 12);
            bodies.vx[body] = loadFloat<order>(at + 16);
            bodies.vy[body] = loadFloat<order>(at + 20);
            bodies.vz[body] = loadFloat<order>(at + 24);
            bodies.colorKey[body] = colorKey;
            bodies.component[body] = recordKind.component;
            if constexpr (order == ByteOrder::Big) {
                bodies.id[body] = body;
            } else {
                const auto id = std::int32_t(loadWord<order>(at + recordBytes - sizeof(float)));
                if (id < 0)
                    throw SnapshotError(file, "id " + std::to_string(id) + " is negative", where());
                bodies.id[body] = std::uint64_t(id);
            }
            checkBody(bodies, body, file, where);
        }
    }
}

/// Collects records and hands them to the file a buffer at a time.
class RecordBuffer {
public:
    explicit RecordBuffer(AtomicFile& out) : m_out(out), m_bytes(kWriteBufferBytes) {}

    /// Room for byteCount zeroed bytes, valid until the next call.
    std::byte* append(std::size_t byteCount) {
        if (m_used + byteCount > m_bytes.size())
            flush();
        std::byte* room = m_bytes.data() + m_used;
        std::memset(room, 0, byteCount);
        m_used += byteCount;
        return room;
    }
    void flush() {
        m_out.write(m_bytes.data(), m_used);
        m_used = 0;
    }

private:
    AtomicFile& m_out;
    std::vector<std::byte> m_bytes;
    std::size_t m_used = 0;
};

template <ByteOrder order> void encodeSnapshot(AtomicFile& out, const Snapshot& snapshot) {
    const Bodies& bodies = snapshot.bodies;
    std::array<std::uint32_t, 3> counts{};
    for (std::uint8_t component : bodies.component)
        ++counts[recordKindFor(component)];

    RecordBuffer buffer(out);
    std::byte* header = buffer.append(order == ByteOrder::Big ? kHeaderBytes : kPaddedHeaderBytes);
    storeDouble<order>(header, snapshot.time);
    storeWord<order>(header + 8, std::uint32_t(bodies.size()));
    storeWord<order>(header + 12, 3);
    for (std::size_t kind = 0; kind < kRecordKinds.size(); ++kind)
        storeWord<order>(header + 16 + 4 * kind, counts[kind]);

    for (std::size_t kind = 0; kind < kRecordKinds.size(); ++kind) {
        const std::size_t recordBytes = kRecordKinds[kind].floatCount * sizeof(float);
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            if (recordKindFor(bodies.component[i]) != kind)
                continue;
            std::byte* record = buffer.append(recordBytes);
            const std::array<float, 7> fields{bodies.mass[i], bodies.x[i],  bodies.y[i], bodies.z[i],
                                              bodies.vx[i],   bodies.vy[i], bodies.vz[i]};
            for (std::size_t field = 0; field < fields.size(); ++field)
                storeWord<order>(record + 4 * field, std::bit_cast<std::uint32_t>(fields[field]));
            if constexpr (order == ByteOrder::Little) {
                if (bodies.id[i] > std::uint64_t(std::numeric_limits<std::int32_t>::max()))
                    throw SnapshotError(out.target(),
                                        "body " + std::to_string(i) + " has id " + std::to_string(bodies.id[i]) +
                                            ", but little-endian tipsy stores ids as int32 (at most 2147483647): "
                                            "write HDF5 (--format hdf5) to keep 64-bit ids");
                storeWord<order>(record + recordBytes - sizeof(float), std::uint32_t(bodies.id[i]));
            }
        }
    }
    buffer.flush();
}

} // namespace

std::optional<ByteOrder> tipsyByteOrder(std::span<const std::byte> bytes) {
    if (bytes.size() < kHeaderBytes)
        return std::nullopt;
    for (ByteOrder order : {ByteOrder::Big, ByteOrder::Little})
        if (headerProblem(decodeHeader(bytes.data(), order)).empty())
            return order;
    return std::nullopt;
}

std::optional<ByteOrder> tipsyByteOrder(const std::filesystem::path& file) {
    const MappedFile mapped(file);
    return tipsyByteOrder(mapped.bytes());
}

Snapshot parseTipsy(std::span<const std::byte> bytes, ByteOrder order, const std::filesystem::path& file) {
    if (bytes.size() < kHeaderBytes)
        throw SnapshotError(file, "truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                                      std::to_string(kHeaderBytes) + "-byte tipsy header");
    const TipsyHeader header = decodeHeader(bytes.data(), order);
    if (const std::string problem = headerProblem(header); !problem.empty()) {
        std::string message =
            "the header makes no sense as " + std::string(enumName(formatFor(order))) + ": " + problem;
        const std::optional<ByteOrder> actual = tipsyByteOrder(bytes);
        if (actual && *actual != order)
            message += "; it does as " + std::string(enumName(formatFor(*actual))) + " (--format " +
                       std::string(enumName(formatFor(*actual))) + ")";
        throw SnapshotError(file, message, header.describe());
    }
    const std::size_t headerBytes = headerBytesFor(header, bytes.size(), order, file);
    if (header.nbodies == 0)
        throw SnapshotError(file, "no bodies: the header's counts are all 0", header.describe());

    Snapshot snapshot;
    snapshot.time = header.time;
    allocateBodies(snapshot.bodies, std::size_t(header.nbodies), file);
    if (order == ByteOrder::Big)
        decodeRecords<ByteOrder::Big>(bytes.data() + headerBytes, header, snapshot.bodies, file);
    else
        decodeRecords<ByteOrder::Little>(bytes.data() + headerBytes, header, snapshot.bodies, file);
    return snapshot;
}

Snapshot readTipsy(const std::filesystem::path& file, ByteOrder order) {
    const MappedFile mapped(file);
    return parseTipsy(mapped.bytes(), order, file);
}

void writeTipsy(AtomicFile& out, const Snapshot& snapshot, ByteOrder order) {
    if (order == ByteOrder::Big)
        encodeSnapshot<ByteOrder::Big>(out, snapshot);
    else
        encodeSnapshot<ByteOrder::Little>(out, snapshot);
}

} // namespace gravlab::io
