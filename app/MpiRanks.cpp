// Rank 0 leads, the other ranks follow (see MpiRanks.hpp).
#include "MpiRanks.hpp"

#include <gravlab/sim/Communicator.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace gravlab {

bool runsAcrossRanks() {
    return worldCommunicator().size() > 1;
}

bool followsRankZero() {
    return worldCommunicator().rank() != 0;
}

std::ostream& rankZeroStream(std::ostream& stream) {
    static std::ostream discard(nullptr); // no buffer: every write is dropped
    return followsRankZero() ? discard : stream;
}

std::string errorPrefix() {
    if (!runsAcrossRanks())
        return "gravlab: error: ";
    const Communicator& world = worldCommunicator();
    return "gravlab: rank " + std::to_string(world.rank()) + " of " + std::to_string(world.size()) + ": error: ";
}

int exitStatusAcrossRanks(int status) {
    if (status == 0 || !runsAcrossRanks())
        return status;
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(status);
}

CpuFmaPeak summedOverRanks(CpuFmaPeak peak) {
    std::array<double, 2> sums{peak.flopsPerSecond, double(peak.threads)};
    worldCommunicator().allReduceSum(sums);
    peak.flopsPerSecond = sums[0];
    peak.threads = int(sums[1]);
    return peak;
}

void requireSupportedAcrossRanks(const AppOptions& options) {
    const std::string across = " is not supported across MPI ranks (mpirun) yet: ";
    if (!options.headless)
        throw UsageError("the window" + across + "add --headless, or run without mpirun");
    if (options.compare)
        throw UsageError("--compare" + across + "drop it, or run without mpirun");
    if (options.colorMode != ColorMode::Component && options.colorMode != ColorMode::OrbDomain)
        throw UsageError("--color " + std::string(enumName(options.colorMode)) + across +
                         "use --color component or orb-domain, or run without mpirun");
    if (options.treeOverlay.enabled)
        throw UsageError("--overlay-depth" + across + "drop it, or run without mpirun");
}

AppOptions optionsAcrossRanks(const AppOptions& options) {
    requireSupportedAcrossRanks(options);
    AppOptions adapted = options;
    // The ranks' domains are the ORB domains of a run across ranks (one per rank, DistributedCpuBackend): domains asked
    // for by --orb-domains, --orb-cells or --color orb-domain are those.
    adapted.simulation.orb.domainCount = 0;
    return adapted;
}

namespace {

/// A follower draws nothing: what the session would push or invalidate goes nowhere.
class NothingDrawn final : public FrameSink {
public:
    void refreshVertices(const Simulation&) override {}
    void invalidateTreeOverlay() override {}
    void invalidateOrbOverlay() override {}
};

} // namespace

int followHeadlessRun(Simulation& simulation, const HeadlessSettings& settings) {
    // Rank 0's session with its files left to rank 0: the same steps, snapshot reads and plot samples, so the same
    // collective calls in the same order. Frame 0 shows the initial state (its snapshot is due); every later frame
    // first takes its steps.
    SessionSettings followed = sessionSettingsFrom(settings);
    followed.saving.writeFiles = false;
    NothingDrawn sink;
    SessionController session(simulation, sink, followed);
    for (int frame = 0; frame < settings.frameCount; ++frame) {
        const FrameAdvance advance = frame == 0 ? session.stepSimulation(0) : session.advanceFrame();
        if (advance.rolledBack())
            return 1; // every rank met it together; rank 0 reports it
    }
    return 0;
}

} // namespace gravlab
