// The memory check before a run: the CPU estimate bounds the heap the run really allocates (counted by HeapPeak,
// independent of the hand count), a run is accepted with exactly the bytes it needs and refused with one byte less,
// before a single body is generated, with a message naming N, both amounts and the largest N that fits; a change to a
// running simulation counts what its current bodies release and leaves the simulation unchanged when refused.
#include "HeapPeak.hpp"
#include "SimTestSupport.hpp"

#include <gravlab/sim/MemoryBudget.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace gravlab {
namespace {

/// Fixed amounts, so refusal and acceptance do not depend on the machine.
class FixedMemory final : public MemorySource {
public:
    std::optional<std::uint64_t> hostBytes;
    std::optional<std::uint64_t> deviceBytes;
    mutable int queries = 0;

    MemoryAvailable available(bool includeDevice) const override {
        ++queries;
        MemoryAvailable available;
        available.hostBytes = hostBytes;
        available.hostLimit = "a test's fixed amount";
        if (includeDevice) {
            available.deviceBytes = deviceBytes;
            available.deviceName = "a test device";
        }
        return available;
    }
};

SimParams cpuParams(const std::string& scenario, std::uint64_t bodyCount, std::string solver, std::uint32_t domains,
                    std::uint64_t seed) {
    SimParams params;
    params.scenario = scenario;
    params.bodyCount = bodyCount;
    params.solver = solver;
    params.orb.domainCount = domains;
    params.orb.balance = OrbBalance::Work;
    params.backend = BackendKind::Cpu;
    params.seed = seed;
    return params;
}

/// The message of the InsufficientMemoryError that creating a simulation throws; fails the test when it fits.
std::string refusalOf(const SimParams& params, const CompanionMemory& companion, const MemorySource& memory) {
    try {
        const Simulation simulation(params, companion, memory);
        ADD_FAILURE() << params.bodyCount << " bodies were accepted";
    } catch (const InsufficientMemoryError& error) {
        return error.what();
    }
    return {};
}

TEST(MemoryBudget, CpuEstimateBoundsTheHeapARunReallyAllocates) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // The tree cases run past 2^16 bodies, where the octree's parallel sort adds its merge buffer; the direct sum is
    // O(N^2), so it runs smaller.
    struct Case {
        std::string scenario;
        std::uint64_t bodyCount;
        std::string solver;
        std::uint32_t domains;
        bool hierarchical = false; ///< levels (max 3, so a run stays short), ORB's order and the tree's target list
    };
    const std::uint64_t treeBodies = std::uniform_int_distribution<std::uint64_t>(66000, 90000)(random);
    const std::uint64_t directBodies = std::uniform_int_distribution<std::uint64_t>(12000, 20000)(random);
    for (const Case& run :
         {Case{"plummer", treeBodies, "tree", 0}, Case{"galaxy-collision", treeBodies, "tree", 64},
          Case{"cold-cube", treeBodies, "tree", 0}, Case{"disk-galaxy", directBodies, "direct", 0},
          Case{"plummer", directBodies, "direct", 16}, Case{"galaxy-collision", treeBodies, "tree", 64, true}}) {
        SimParams params = cpuParams(run.scenario, run.bodyCount, run.solver, run.domains, random());
        if (run.hierarchical)
            params.timeSteps = {TimeStepMode::Hierarchical, 0.2, 3};
        SCOPED_TRACE(run.scenario + ", " + std::to_string(run.bodyCount) + " bodies, " + std::string(run.solver) +
                     ", " + std::to_string(run.domains) + " ORB domains" +
                     (run.hierarchical ? ", hierarchical steps" : ""));
        const MemoryEstimate estimate = estimateMemory(params, std::nullopt);
        const simtest::HeapPeak heap;
        {
            Simulation simulation(params);
            simulation.step(3); // rebuilds, migrations, the rollback copy and the solver's scratch all happen
        }
        const double measured = double(heap.peakBytes());
        // Allocations that do not grow with N (interaction lists, ORB cells, scenario tables) stay far below 128 kB,
        // while the smallest per-body term, the 16 bytes of accelerations and work weights, is over 128 kB here.
        EXPECT_LE(measured, double(estimate.hostBytes) + 128e3);
        // An upper bound, but not a careless one: the tree's allowance of one cell per two bodies (0.23 to 0.35
        // measured) is the main slack.
        EXPECT_LE(double(estimate.hostBytes), 1.5 * measured);
    }
}

TEST(MemoryBudget, ARunFitsWithExactlyItsBytesAndIsRefusedBeforeAnyBodyWithOneLess) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::uint64_t bodies = std::uniform_int_distribution<std::uint64_t>(100, 3000)(random);
    const SimParams params = cpuParams("plummer", bodies, "tree", 0, random());
    const CompanionMemory companion{std::uniform_int_distribution<std::uint64_t>(0, 64)(random),
                                    std::uniform_int_distribution<std::uint64_t>(0, 64)(random),
                                    std::uniform_int_distribution<std::uint64_t>(0, 1 << 20)(random)};
    const MemoryEstimate estimate = estimateMemory(params, std::nullopt, companion);

    FixedMemory memory;
    memory.hostBytes = estimate.hostBytes;
    EXPECT_NO_THROW({ const Simulation accepted(params, companion, memory); });

    memory.hostBytes = estimate.hostBytes - 1;
    const simtest::HeapPeak heap;
    const std::string message = refusalOf(params, companion, memory);
    EXPECT_LT(heap.peakBytes(), bodies * Bodies::kBytesPerBody) << "the scenario was generated before the refusal";
    EXPECT_NE(message.find(std::to_string(bodies) + " bodies need " + formatBytes(double(estimate.hostBytes)) +
                           " of host memory, " + formatBytes(double(estimate.hostBytes - 1)) + " available"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("a test's fixed amount"), std::string::npos) << message;
    EXPECT_NE(message.find("at most " + std::to_string(bodies - 1) + " bodies fit"), std::string::npos) << message;
}

TEST(MemoryBudget, TheLargestBodyCountNamedFitsAndOneMoreDoesNot) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params = cpuParams("plummer", kMaxBodyCount, "direct", 0, random());
    params.solver = random() % 2 == 0 ? "direct" : "tree";
    FixedMemory memory;
    memory.hostBytes = std::uniform_int_distribution<std::uint64_t>(1ull << 20, 1ull << 34)(random);
    const std::string message = refusalOf(params, {}, memory);
    const std::size_t at = message.find("at most ");
    ASSERT_NE(at, std::string::npos) << message;
    params.bodyCount = std::stoull(message.substr(at + 8));
    EXPECT_LE(estimateMemory(params, std::nullopt).hostBytes, *memory.hostBytes) << message;
    ++params.bodyCount;
    EXPECT_GT(estimateMemory(params, std::nullopt).hostBytes, *memory.hostBytes) << message;
}

TEST(MemoryBudget, DeviceRunsCountTheDeviceFootprintAndTheUploadStaging) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams params =
        cpuParams("plummer", std::uniform_int_distribution<std::uint64_t>(1, kMaxBodyCount)(random), "tree", 0, 1);
    const DeviceFootprint device{std::uniform_int_distribution<std::uint64_t>(48, 400)(random), 64ull << 20};
    const CompanionMemory companion{16, 16, 1000};
    const MemoryEstimate estimate = estimateMemory(params, device, companion);
    const std::uint64_t n = params.bodyCount;
    // Independent count: the device holds the core's bytes and the interop buffer per body plus the reserve; the host
    // holds the staging array, the ids and components (8 + 1 bytes) and, while loading, the generated bodies (8 floats,
    // an id and a component) and the upload arrays (two float4 and a uint32 load order).
    // On the CPU the buffer beside the bodies is host memory.
    constexpr std::uint64_t identity = 8 + 1, generated = 8 * 4 + 8 + 1, upload = 2 * 16 + 4;
    EXPECT_EQ(estimate.deviceBytes, n * (device.bytesPerBody + 16) + device.reserveBytes);
    EXPECT_EQ(estimate.hostResidentBytes, n * (16 + identity) + 1000);
    EXPECT_EQ(estimate.hostBytes, n * (16 + identity + generated + upload) + 1000);
    const MemoryEstimate onCpu = estimateMemory(params, std::nullopt, companion);
    const MemoryEstimate bare = estimateMemory(params, std::nullopt);
    EXPECT_EQ(onCpu.hostResidentBytes, bare.hostResidentBytes + n * (16 + 16) + 1000);
    EXPECT_EQ(onCpu.deviceBytes, 0u);

    FixedMemory memory;
    memory.hostBytes = estimate.hostBytes;
    memory.deviceBytes = estimate.deviceBytes;
    EXPECT_NO_THROW(requireMemoryFor(params, device, companion, memory));
    memory.deviceBytes = estimate.deviceBytes - 1;
    try {
        requireMemoryFor(params, device, companion, memory);
        ADD_FAILURE() << "one byte too few on the device was accepted";
    } catch (const InsufficientMemoryError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(std::to_string(n) + " bodies need " + formatBytes(double(estimate.deviceBytes)) +
                               " of GPU memory"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("on a test device"), std::string::npos) << message;
    }
}

TEST(MemoryBudget, AbsurdCountsSaturateInsteadOfWrappingAround) {
    SimParams params = cpuParams("plummer", std::uint64_t{1} << 62, "tree", 8, 1);
    const MemoryEstimate estimate = estimateMemory(params, DeviceFootprint{1ull << 10, 64ull << 20}, {1 << 10, 16, 0});
    EXPECT_EQ(estimate.hostBytes, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(estimate.deviceBytes, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(estimateMemory(params, std::nullopt).hostBytes, std::numeric_limits<std::uint64_t>::max());
}

TEST(MemoryBudget, SetParamsCountsWhatTheCurrentBodiesReleaseAndKeepsTheStateWhenRefused) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams small =
        cpuParams("plummer", std::uniform_int_distribution<std::uint64_t>(200, 800)(random), "direct", 0, random());
    FixedMemory memory;
    memory.hostBytes = std::numeric_limits<std::uint64_t>::max();
    Simulation simulation(small, {}, memory);
    const MemoryEstimate held = estimateMemory(small, std::nullopt);

    // More bodies and the tree: what fits is what is free now plus what the current bodies release.
    SimParams larger = small;
    larger.bodyCount = 2 * small.bodyCount;
    larger.solver = "tree";
    const MemoryEstimate needed = estimateMemory(larger, std::nullopt);
    memory.hostBytes = needed.hostBytes - held.hostResidentBytes - 1;
    EXPECT_THROW(simulation.setParams(larger), InsufficientMemoryError);
    EXPECT_EQ(simulation.bodyCount(), small.bodyCount) << "a refused change leaves the simulation as it was";
    EXPECT_EQ(simulation.params().solver, "direct");
    memory.hostBytes = needed.hostBytes - held.hostResidentBytes;
    simulation.setParams(larger);
    EXPECT_EQ(simulation.bodyCount(), larger.bodyCount);

    // Fewer bodies and a cheaper solver never need more than the simulation holds: not even asked.
    memory.hostBytes = 0;
    const int queriesBefore = memory.queries;
    simulation.setParams(small);
    EXPECT_EQ(simulation.bodyCount(), small.bodyCount);
    EXPECT_EQ(memory.queries, queriesBefore);
}

} // namespace
} // namespace gravlab
