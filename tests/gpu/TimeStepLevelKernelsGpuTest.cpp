// The level kernels of the device's hierarchical steps against the host's level functions (TimeStepLevels.hpp, checked
// by hand-worked cases in tests/sim/SymmetricLevelChoiceTest.cpp and TidalLevelChoiceTest.cpp) on fresh random inputs:
// the symmetric and tidal choices must give each body the very level the CPU gives it, which needs the kernel to read
// each body's remembered acceleration through its load index and its velocity through its place, and to round as the
// host does (no fused multiply-adds); and a sub-step's opening pass must list and remember exactly the bodies about to
// be evaluated, with their step.
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/DeviceHierarchicalLeapfrog.hpp"

#include <algorithm>
#include <numeric>
#include <vector_functions.h>

namespace gravlab::gputest {
namespace {

constexpr std::size_t kBodies = std::size_t{1} << 18;
constexpr std::uint32_t kMaxLevel = 8;
constexpr double kBaseStep = 0.01;

struct LevelInputs {
    std::vector<float4> acceleration; ///< in body order
    std::vector<float4> velocity;     ///< in body order
    std::vector<float4> earlier;      ///< in load order
    std::vector<std::uint32_t> loadOrder;
};

// |a| log-uniform over 1e-2 to 1e5, so that eta 0.03 and eps 0.02 spread the bodies over levels 0 to 8; the earlier
// acceleration is a plus a change of up to its own size in each component, taken one level's step earlier, or absent
// (interval 0) for a tenth of the bodies; velocities up to 10^3 per component, log-uniform, so the tidal choice's
// omega^2 = |da| / |dx| spreads over the levels too; load order a random permutation.
LevelInputs randomLevelInputs(std::mt19937_64& random) {
    std::uniform_real_distribution<double> logMagnitude(-2.0, 5.0);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<std::uint32_t> level(0, kMaxLevel);
    LevelInputs in;
    in.acceleration.resize(kBodies);
    in.velocity.resize(kBodies);
    in.earlier.resize(kBodies);
    in.loadOrder.resize(kBodies);
    std::iota(in.loadOrder.begin(), in.loadOrder.end(), 0u);
    std::shuffle(in.loadOrder.begin(), in.loadOrder.end(), random);
    for (std::size_t i = 0; i < kBodies; ++i) {
        const double magnitude = std::pow(10.0, logMagnitude(random));
        float a[3];
        for (float& component : a)
            component = float(magnitude * unit(random));
        in.acceleration[i] = make_float4(a[0], a[1], a[2], 1.0f);
        const double speed = std::pow(10.0, logMagnitude(random) - 2.0);
        in.velocity[i] =
            make_float4(float(speed * unit(random)), float(speed * unit(random)), float(speed * unit(random)), 0.5f);
        const bool remembered = unit(random) > -0.8;
        const float interval = remembered ? float(kBaseStep / double(1u << level(random))) : 0.0f;
        in.earlier[in.loadOrder[i]] =
            make_float4(float(a[0] + magnitude * unit(random)), float(a[1] + magnitude * unit(random)),
                        float(a[2] + magnitude * unit(random)), interval);
    }
    return in;
}

template <class T> DeviceBuffer<T> uploaded(const std::vector<T>& host, cudaStream_t stream) {
    DeviceBuffer<T> buffer(host.size());
    buffer.upload(host, stream);
    return buffer;
}

class LevelKernelGpu : public CudaDeviceTest, public testing::WithParamInterface<LevelChoice> {};

TEST_P(LevelKernelGpu, LevelsOnTheDeviceAreTheHostsForRandomBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const LevelInputs in = randomLevelInputs(random);
    const TimeStepCriterion criterion{kBaseStep, 0.02, 0.03, kMaxLevel, GetParam()};
    CudaStream stream;
    const DeviceBuffer<float4> acceleration = uploaded(in.acceleration, stream.get());
    const DeviceBuffer<float4> velocity = uploaded(in.velocity, stream.get());
    const DeviceBuffer<float4> earlier = uploaded(in.earlier, stream.get());
    const DeviceBuffer<std::uint32_t> loadOrder = uploaded(in.loadOrder, stream.get());
    DeviceBuffer<std::uint8_t> levelOfLoad(kBodies);
    DeviceBuffer<unsigned> histogram(kDeviceTimeStepLevels);
    histogram.zero(stream.get());
    launchAssignTimeStepLevels(acceleration.data(), velocity.data(), loadOrder.data(), levelOfLoad.data(), kBodies,
                               criterion, earlier.data(), histogram.data(), stream.get());
    std::vector<std::uint8_t> levels(kBodies);
    std::vector<unsigned> counts(kDeviceTimeStepLevels);
    levelOfLoad.download(levels, stream.get());
    histogram.download(counts, stream.get());
    stream.synchronize();

    TimeStepCriterion atStart = criterion;
    atStart.choice = LevelChoice::Start;
    std::vector<unsigned> expectedCounts(kDeviceTimeStepLevels, 0);
    std::size_t differFromStart = 0;
    for (std::size_t i = 0; i < kBodies; ++i) {
        const float4 a = in.acceleration[i];
        const float4 v = in.velocity[i];
        const float4 e = in.earlier[in.loadOrder[i]];
        const std::uint32_t expected =
            chosenTimeStepLevel(a.x, a.y, a.z, {e.x, e.y, e.z, e.w}, v.x, v.y, v.z, criterion);
        ASSERT_EQ(levels[in.loadOrder[i]], expected) << "body " << i;
        ++expectedCounts[expected];
        differFromStart += expected != wantedTimeStepLevel(a.x, a.y, a.z, atStart);
    }
    EXPECT_EQ(counts, expectedCounts);
    EXPECT_GT(expectedCounts[0], 0u);
    EXPECT_GT(expectedCounts[kMaxLevel], 0u);
    EXPECT_GT(differFromStart, kBodies / 10) << "the history should move many bodies off the start's level";
}

INSTANTIATE_TEST_SUITE_P(CudaDeviceTest, LevelKernelGpu, testing::Values(LevelChoice::Symmetric, LevelChoice::Tidal),
                         [](const testing::TestParamInfo<LevelChoice>& choice) {
                             return std::string(enumName(choice.param));
                         });

// The opening pass of a sub-step whose end evaluates levels 3 and deeper: it must list exactly those bodies (flags and
// list), remember exactly their accelerations with their step, and clear the closing pass's histogram.
TEST_F(CudaDeviceTest, TheOpeningPassListsAndRemembersTheBodiesAboutToBeEvaluated) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const LevelInputs in = randomLevelInputs(random);
    std::uniform_int_distribution<int> anyLevel(0, int(kMaxLevel));
    std::vector<std::uint8_t> levels(kBodies);
    for (std::uint8_t& level : levels)
        level = std::uint8_t(anyLevel(random));
    LevelHalfSteps halfSteps{};
    for (std::uint32_t level = 0; level <= kMaxLevel; ++level)
        halfSteps.value[level] = float(0.5 * kBaseStep / double(1u << level));
    constexpr std::uint32_t kShallowestActive = 3;
    const float4 untouched = make_float4(-7.0f, -7.0f, -7.0f, -7.0f);
    CudaStream stream;
    DeviceBuffer<float4> positions = uploaded(std::vector<float4>(kBodies, make_float4(0, 0, 0, 1)), stream.get());
    DeviceBuffer<float4> velocities = uploaded(std::vector<float4>(kBodies, make_float4(0, 0, 0, 0)), stream.get());
    const DeviceBuffer<float4> acceleration = uploaded(in.acceleration, stream.get());
    const DeviceBuffer<std::uint32_t> loadOrder = uploaded(in.loadOrder, stream.get());
    const DeviceBuffer<std::uint8_t> levelOfLoad = uploaded(levels, stream.get());
    DeviceBuffer<float4> earlier = uploaded(std::vector<float4>(kBodies, untouched), stream.get());
    DeviceBuffer<std::uint8_t> isTarget = uploaded(std::vector<std::uint8_t>(kBodies, 7), stream.get());
    DeviceBuffer<std::uint32_t> activeList(kBodies);
    DeviceBuffer<unsigned> counters = uploaded(std::vector<unsigned>(kDeviceTimeStepLevels + 1, 5u), stream.get());
    unsigned* activeCount = counters.data() + kDeviceTimeStepLevels;
    CUDA_CHECK(cudaMemsetAsync(activeCount, 0, sizeof(unsigned), stream.get()));
    const SubStepTargets targets{kShallowestActive, isTarget.data(), activeList.data(),
                                 activeCount,       earlier.data(),  counters.data()};
    launchOpeningKicksAndDrift(positions.data(), velocities.data(), acceleration.data(), loadOrder.data(),
                               levelOfLoad.data(), kBodies, 0, kMaxLevel, halfSteps, 1e-3f, targets, stream.get());
    std::vector<float4> written(kBodies);
    std::vector<std::uint8_t> flags(kBodies);
    std::vector<std::uint32_t> listed(kBodies);
    std::vector<unsigned> counts(kDeviceTimeStepLevels + 1);
    earlier.download(written, stream.get());
    isTarget.download(flags, stream.get());
    activeList.download(listed, stream.get());
    counters.download(counts, stream.get());
    stream.synchronize();

    std::vector<std::uint32_t> expectedList;
    for (std::size_t i = 0; i < kBodies; ++i) {
        const std::uint32_t load = in.loadOrder[i];
        const float4 w = written[load];
        const std::uint32_t level = levels[load];
        ASSERT_EQ(flags[i], level >= kShallowestActive ? 1 : 0) << "body " << i << " on level " << level;
        if (level < kShallowestActive) {
            ASSERT_EQ(w.w, untouched.w) << "body " << i << " on level " << level << " is not evaluated";
            continue;
        }
        expectedList.push_back(std::uint32_t(i));
        const float4 a = in.acceleration[i];
        ASSERT_EQ(w.x, a.x) << "body " << i;
        ASSERT_EQ(w.y, a.y) << "body " << i;
        ASSERT_EQ(w.z, a.z) << "body " << i;
        ASSERT_EQ(w.w, float(kBaseStep / double(1u << level))) << "body " << i << ": its step on level " << level;
    }
    ASSERT_EQ(counts[kDeviceTimeStepLevels], expectedList.size());
    listed.resize(expectedList.size());
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, expectedList);
    for (std::uint32_t level = 0; level < kDeviceTimeStepLevels; ++level)
        EXPECT_EQ(counts[level], 0u) << "the closing pass's histogram is cleared, level " << level;
    EXPECT_GT(expectedList.size(), kBodies / 2);
}

} // namespace
} // namespace gravlab::gputest
