#pragma once
// MPI's world as a Communicator (Communicator.hpp); compiled only in builds with MPI (GRAVLAB_HAS_MPI).
//
// Design note: MPI is initialised by the first MpiCommunicator (threads funnelled: OpenMP threads never call MPI) and
// finalised by its destructor, which runs at exit since worldCommunicator() keeps it in a function-local static. Errors
// return instead of aborting (MPI_ERRORS_RETURN) and are thrown as std::runtime_error with MPI's own text, so a failed
// collective reads like every other error. MPI counts bytes in int: a single exchange beyond 2 GiB per rank is refused
// with a message rather than truncated.
#include <gravlab/sim/Communicator.hpp>

namespace gravlab {

class MpiCommunicator final : public Communicator {
public:
    MpiCommunicator();
    ~MpiCommunicator() override;
    MpiCommunicator(const MpiCommunicator&) = delete;
    MpiCommunicator& operator=(const MpiCommunicator&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string description() const override;
    void barrier() override;
    void allGatherBytes(std::span<const std::byte> mine, std::vector<std::byte>& all,
                        std::vector<std::size_t>& byteCounts) override;
    void allToAllBytes(std::span<const std::vector<std::byte>> sends, std::vector<std::byte>& received,
                       std::vector<std::size_t>& byteCounts) override;
    void allReduceSum(std::span<double> values) override;
    void allReduceSum(std::span<std::uint64_t> values) override;
    void allReduceMax(std::span<double> values) override;
    void broadcastBytes(std::span<std::byte> bytes, int root) override;

private:
    bool m_initialisedHere = false;
    int m_rank = 0;
    int m_size = 1;
};

} // namespace gravlab
