#pragma once
// The ranks of a distributed run and the collectives they exchange data with.
//
// Design note: one process per rank, launched by mpirun; each rank owns the bodies of its ORB domains. Everything
// that crosses ranks goes through this interface, so the distributed code is written once against it and runs on MPI
// (CPU ranks, and the id broadcast that sets up NCCL for device data) or, in a build without MPI or a process started
// without mpirun, on a single rank whose collectives are copies. The collectives move bytes; the typed helpers below
// turn spans of trivially copyable values into bytes and back, so callers never cast.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace gravlab {

class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    /// "MPI (OpenMPI 4.1.4), 3 ranks" or "single process".
    virtual std::string description() const = 0;
    virtual void barrier() = 0;
    /// Every rank's bytes concatenated in rank order into all (the same on every rank); byteCounts[r] is rank r's.
    virtual void allGatherBytes(std::span<const std::byte> mine, std::vector<std::byte>& all,
                                std::vector<std::size_t>& byteCounts) = 0;
    /// sends[r] goes to rank r (sends.size() == size()); what every rank sent here lands in received in rank order,
    /// with byteCounts[r] from rank r.
    virtual void allToAllBytes(std::span<const std::vector<std::byte>> sends, std::vector<std::byte>& received,
                               std::vector<std::size_t>& byteCounts) = 0;
    /// Element-wise over ranks, in place, the result on every rank.
    virtual void allReduceSum(std::span<double> values) = 0;
    virtual void allReduceSum(std::span<std::uint64_t> values) = 0;
    virtual void allReduceMax(std::span<double> values) = 0;
    /// root's bytes into every rank's bytes (same size everywhere).
    virtual void broadcastBytes(std::span<std::byte> bytes, int root) = 0;
};

/// This process's communicator: MPI's world when the build has MPI (GRAVLAB_HAS_MPI) and mpirun started the process,
/// initialised on first use and finalised at exit; otherwise a single rank, with no MPI call made.
Communicator& worldCommunicator();

/// Every rank's values concatenated in rank order; counts[r] (when given) is rank r's number of values.
template <class T>
std::vector<T> allGather(Communicator& communicator, std::span<const T> mine,
                         std::vector<std::size_t>* counts = nullptr) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::byte> bytes;
    std::vector<std::size_t> byteCounts;
    communicator.allGatherBytes(std::as_bytes(mine), bytes, byteCounts);
    std::vector<T> all(bytes.size() / sizeof(T));
    if (!bytes.empty())
        std::memcpy(all.data(), bytes.data(), bytes.size());
    if (counts != nullptr) {
        counts->clear();
        for (const std::size_t byteCount : byteCounts)
            counts->push_back(byteCount / sizeof(T));
    }
    return all;
}

/// allGather of a whole vector.
template <class T>
std::vector<T> allGather(Communicator& communicator, const std::vector<T>& mine,
                         std::vector<std::size_t>* counts = nullptr) {
    return allGather(communicator, std::span<const T>(mine), counts);
}

/// sends[r] to rank r; returns what arrived, in rank order, with counts[r] values from rank r when counts is given.
template <class T>
std::vector<T> allToAll(Communicator& communicator, const std::vector<std::vector<T>>& sends,
                        std::vector<std::size_t>* counts = nullptr) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<std::vector<std::byte>> sendBytes(sends.size());
    for (std::size_t r = 0; r < sends.size(); ++r) {
        const std::span<const std::byte> bytes = std::as_bytes(std::span<const T>(sends[r]));
        sendBytes[r].assign(bytes.begin(), bytes.end());
    }
    std::vector<std::byte> received;
    std::vector<std::size_t> byteCounts;
    communicator.allToAllBytes(sendBytes, received, byteCounts);
    std::vector<T> values(received.size() / sizeof(T));
    if (!received.empty())
        std::memcpy(values.data(), received.data(), received.size());
    if (counts != nullptr) {
        counts->clear();
        for (const std::size_t byteCount : byteCounts)
            counts->push_back(byteCount / sizeof(T));
    }
    return values;
}

} // namespace gravlab
