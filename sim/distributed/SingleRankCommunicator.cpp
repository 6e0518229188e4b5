// A single rank's collectives: copies (SingleRankCommunicator.hpp).
#include "distributed/SingleRankCommunicator.hpp"

#include <stdexcept>

namespace gravlab {

void SingleRankCommunicator::allGatherBytes(std::span<const std::byte> mine, std::vector<std::byte>& all,
                                            std::vector<std::size_t>& byteCounts) {
    all.assign(mine.begin(), mine.end());
    byteCounts.assign(1, mine.size());
}

void SingleRankCommunicator::allToAllBytes(std::span<const std::vector<std::byte>> sends,
                                           std::vector<std::byte>& received, std::vector<std::size_t>& byteCounts) {
    if (sends.size() != 1)
        throw std::invalid_argument("allToAll on one rank: " + std::to_string(sends.size()) + " send buffers, not 1");
    received = sends[0];
    byteCounts.assign(1, sends[0].size());
}

} // namespace gravlab
