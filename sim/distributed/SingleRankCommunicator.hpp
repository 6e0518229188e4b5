#pragma once
// The communicator of a process that is the whole run: every collective is a copy (Communicator.hpp).
#include <gravlab/sim/Communicator.hpp>

namespace gravlab {

class SingleRankCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string description() const override { return "single process"; }
    void barrier() override {}
    void allGatherBytes(std::span<const std::byte> mine, std::vector<std::byte>& all,
                        std::vector<std::size_t>& byteCounts) override;
    void allToAllBytes(std::span<const std::vector<std::byte>> sends, std::vector<std::byte>& received,
                       std::vector<std::size_t>& byteCounts) override;
    void allReduceSum(std::span<double>) override {}
    void allReduceSum(std::span<std::uint64_t>) override {}
    void allReduceMax(std::span<double>) override {}
    void broadcastBytes(std::span<std::byte>, int) override {}
};

} // namespace gravlab
