// MPI collectives behind the Communicator interface (MpiCommunicator.hpp).
#if defined(GRAVLAB_HAS_MPI)
#include "distributed/MpiCommunicator.hpp"

#include <climits>
#include <mpi.h>
#include <numeric>
#include <stdexcept>

namespace gravlab {
namespace {

void check(int code, const char* what) {
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("MPI ") + what + " failed: " + std::string(text, std::size_t(length)));
}

int byteCount(std::size_t bytes, const char* what) {
    if (bytes > std::size_t(INT_MAX))
        throw std::length_error(std::string("MPI ") + what + ": " + std::to_string(bytes) +
                                " bytes from one rank exceed MPI's int count (2 GiB); use more ranks");
    return int(bytes);
}

/// Displacements of consecutive blocks of these sizes.
std::vector<int> displacementsOf(const std::vector<int>& counts, const char* what) {
    std::vector<int> displacements(counts.size(), 0);
    std::size_t offset = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        displacements[r] = byteCount(offset, what);
        offset += std::size_t(counts[r]);
    }
    (void)byteCount(offset, what);
    return displacements;
}

} // namespace

MpiCommunicator::MpiCommunicator() {
    int initialised = 0;
    check(MPI_Initialized(&initialised), "initialisation check");
    if (!initialised) {
        int provided = 0;
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "initialisation");
        m_initialisedHere = true;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank), "rank query");
    check(MPI_Comm_size(MPI_COMM_WORLD, &m_size), "size query");
}

MpiCommunicator::~MpiCommunicator() {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (m_initialisedHere && !finalised)
        MPI_Finalize();
}

std::string MpiCommunicator::description() const {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string library(version, std::size_t(length));
    library = library.substr(0, library.find_first_of(",\n"));
    return "MPI (" + library + "), " + std::to_string(m_size) + (m_size == 1 ? " rank" : " ranks");
}

void MpiCommunicator::barrier() {
    check(MPI_Barrier(MPI_COMM_WORLD), "barrier");
}

void MpiCommunicator::allGatherBytes(std::span<const std::byte> mine, std::vector<std::byte>& all,
                                     std::vector<std::size_t>& byteCounts) {
    const int myCount = byteCount(mine.size(), "all-gather");
    std::vector<int> counts(std::size_t(m_size), 0);
    check(MPI_Allgather(&myCount, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "all-gather of counts");
    const std::vector<int> displacements = displacementsOf(counts, "all-gather");
    all.resize(std::accumulate(counts.begin(), counts.end(), std::size_t{0}));
    check(MPI_Allgatherv(mine.data(), myCount, MPI_BYTE, all.data(), counts.data(), displacements.data(), MPI_BYTE,
                         MPI_COMM_WORLD),
          "all-gather");
    byteCounts.assign(counts.begin(), counts.end());
}

void MpiCommunicator::allToAllBytes(std::span<const std::vector<std::byte>> sends, std::vector<std::byte>& received,
                                    std::vector<std::size_t>& byteCounts) {
    if (sends.size() != std::size_t(m_size))
        throw std::invalid_argument("MPI all-to-all: " + std::to_string(sends.size()) + " send buffers for " +
                                    std::to_string(m_size) + " ranks");
    std::vector<int> sendCounts(sends.size());
    std::vector<std::byte> sendBuffer;
    for (std::size_t r = 0; r < sends.size(); ++r) {
        sendCounts[r] = byteCount(sends[r].size(), "all-to-all");
        sendBuffer.insert(sendBuffer.end(), sends[r].begin(), sends[r].end());
    }
    std::vector<int> receiveCounts(sends.size(), 0);
    check(MPI_Alltoall(sendCounts.data(), 1, MPI_INT, receiveCounts.data(), 1, MPI_INT, MPI_COMM_WORLD),
          "all-to-all of counts");
    const std::vector<int> sendDisplacements = displacementsOf(sendCounts, "all-to-all");
    const std::vector<int> receiveDisplacements = displacementsOf(receiveCounts, "all-to-all");
    received.resize(std::accumulate(receiveCounts.begin(), receiveCounts.end(), std::size_t{0}));
    check(MPI_Alltoallv(sendBuffer.data(), sendCounts.data(), sendDisplacements.data(), MPI_BYTE, received.data(),
                        receiveCounts.data(), receiveDisplacements.data(), MPI_BYTE, MPI_COMM_WORLD),
          "all-to-all");
    byteCounts.assign(receiveCounts.begin(), receiveCounts.end());
}

void MpiCommunicator::allReduceSum(std::span<double> values) {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), byteCount(values.size(), "sum"), MPI_DOUBLE, MPI_SUM,
                        MPI_COMM_WORLD),
          "sum");
}

void MpiCommunicator::allReduceSum(std::span<std::uint64_t> values) {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), byteCount(values.size(), "sum"), MPI_UINT64_T, MPI_SUM,
                        MPI_COMM_WORLD),
          "sum");
}

void MpiCommunicator::allReduceMax(std::span<double> values) {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), byteCount(values.size(), "maximum"), MPI_DOUBLE, MPI_MAX,
                        MPI_COMM_WORLD),
          "maximum");
}

void MpiCommunicator::broadcastBytes(std::span<std::byte> bytes, int root) {
    check(MPI_Bcast(bytes.data(), byteCount(bytes.size(), "broadcast"), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast");
}

} // namespace gravlab
#endif
