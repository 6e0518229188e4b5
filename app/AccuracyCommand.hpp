#pragma once
// `gravlab accuracy`: a solver's (by default the tree's) relative acceleration error against the fp64 direct sum, as a table or JSON.
//
// Design note: for every scenario and body count the command generates the bodies once, loads them into one backend
// (auto, cuda or cpu) and, for every theta, measures the sampled error statistics with measureAccuracy
// (include/gravlab/sim/AccuracyReport.hpp). The fp64 reference of a body set is computed once and reused across thetas (it costs
// samples x N pair evaluations: about 4e9 at N = 1M with 4096 samples, seconds on a few CPU cores). Values are
// parsed while CLI11 parses, so a bad one is a CLI::ValidationError naming the flag. Text rows print as each
// measurement finishes, since a 1M-body case on the CPU takes a while.
#include "CliDeclarations.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace gravlab {

inline constexpr ParamRange kAccuracySampleRange{"samples", 1.0, 1048576.0, true, "sampled bodies per case"};

struct AccuracyOptions {
    std::vector<std::string> scenarios{"plummer", "disk-galaxy"};
    std::vector<std::uint64_t> bodyCounts{100000, 1000000};
    std::vector<double> openingAngles{0.3, 0.5, 0.7, 1.0}; ///< theta values, each in kOpeningAngleRange
    /// alpha values of the relative criterion, each in kForceAccuracyRange; when given, one row per alpha replaces the
    /// rows per theta, each measured on an evaluation after one at the first theta (the previous accelerations).
    std::vector<double> forceAccuracies;
    std::size_t sampleCount = 4096;                        ///< kAccuracySampleRange
    BackendKind backend = BackendKind::Auto;
    /// Any registered solver; theta values only matter to those that use it (one row per theta all the same).
    std::string solver = std::string(treeDrawingSolver().name);
    std::uint64_t seed = 42;                              ///< scenario seed; also picks the sampled bodies
    double softeningLength = SimParams{}.softeningLength; ///< kSofteningRange
    bool json = false;                                    ///< one JSON object instead of the table
};

/// Adds the "accuracy" subcommand. List flags take comma-separated values (--thetas 0.3,0.5); each value is checked
/// while CLI11 parses and a bad one becomes a CLI::ValidationError naming the flag, the value and what is allowed.
/// Returns the subcommand (check it with `*subcommand` after parsing).
CLI::App* addAccuracyCommand(CLI::App& app, AccuracyOptions& options);

/// Runs the measurements and prints them to out; returns 0, or 1 with a message on err when a backend cannot be
/// created or a case fails (e.g. not enough memory).
int runAccuracy(const AccuracyOptions& options, std::ostream& out, std::ostream& err);

} // namespace gravlab
