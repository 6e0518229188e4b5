#pragma once
// The gravlab executable under mpirun: rank 0 is the run the user sees, every other rank follows it.
//
// Design note: a run spread over ranks is one simulation whose backend (DistributedCpuBackend) makes collective calls
// in load, step and diagnostics, so every rank must make the same sequence of simulation calls. Rank 0 runs the
// ordinary command (headless frames, bench) and alone writes frames, movies, snapshots, plot CSVs, logs and reports;
// the other ranks run the same command with output streams that discard everything, or, for headless frames,
// followHeadlessRun: rank 0's session (SessionController, the same settings) with nothing drawn and no file written,
// so its steps, snapshot reads and plot samples make the same collective calls in the same order (drawing makes none:
// the backend draws the positions it gathered). convert, which makes no simulation, runs on rank 0 alone. What would
// add calls on rank 0 alone (comparisons, colours and overlays that need a force evaluation) and the window, whose
// calls follow the user, are refused for now with the flag to drop; ORB cells and domain colours show the ranks'
// domains. A failure on one rank ends the process at once without MPI's finalisation, which makes mpirun end every
// rank instead of leaving the others waiting in a collective the failed rank will never join.
#include "CommandLine.hpp"
#include "HeadlessRun.hpp"

#include <gravlab/sim/CpuFmaPeak.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <ostream>
#include <string>

namespace gravlab {

/// Whether mpirun started this process together with other ranks.
bool runsAcrossRanks();
/// Whether this process is a rank other than 0: it follows rank 0's calls and writes nothing.
bool followsRankZero();
/// stream on rank 0; on the other ranks a stream that discards what is written to it.
std::ostream& rankZeroStream(std::ostream& stream);
/// "gravlab: error: ", or across ranks "gravlab: rank 1 of 2: error: " (a failure may be one rank's own).
std::string errorPrefix();
/// The exit status to return from main; across ranks a failing status ends this process here (see the design note).
int exitStatusAcrossRanks(int status);
/// Collective: every rank's own peak (measured at the same time, as the ranks step at the same time) summed, flops and
/// threads, so a rate of all ranks together is set against the peak of all their cores. One rank: peak itself.
CpuFmaPeak summedOverRanks(CpuFmaPeak peak);
/// Throws UsageError naming the flag when options ask across ranks for what only one process does yet.
void requireSupportedAcrossRanks(const AppOptions& options);
/// A rank other than 0 in a headless run: drives rank 0's session (steps, snapshot reads, plot samples), draws and
/// writes nothing. Returns the exit status: 1 when a step was rolled back (rank 0 reports it; every rank stops
/// together).
int followHeadlessRun(Simulation& simulation, const HeadlessSettings& settings);
/// options for a run across ranks (requireSupportedAcrossRanks first): ORB domains are the ranks' own, so a domain
/// count asked for is dropped, and --orb-cells and --color orb-domain show the ranks' domains.
AppOptions optionsAcrossRanks(const AppOptions& options);

} // namespace gravlab
