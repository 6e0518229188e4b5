#pragma once
// `gravlab convert IN OUT`: a snapshot from one file format into another (tipsy, tipsy-native, hdf5, csv).
//
// Design note: conversion is readSnapshot then writeSnapshot (Snapshot.hpp) with nothing in between unless asked
// (--recentre), so positions, velocities, masses and ids pass through bit for bit wherever both formats hold them.
// The input's format comes from its bytes and the output's from its extension; --from and --to override. It prints
// what was read (bodies per component, time, units) and the read and write rates, which is how the I/O speed in
// docs/PERFORMANCE.md is measured. A bad file fails with the reader's one-line message and exit status 1.
#include "CliDeclarations.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <filesystem>
#include <iosfwd>
#include <optional>

namespace gravlab {

struct ConvertOptions {
    std::filesystem::path input;
    std::filesystem::path output;
    std::optional<SnapshotFormat> inputFormat;  ///< --from; detected when unset
    std::optional<SnapshotFormat> outputFormat; ///< --to; from the output's extension when unset
    bool recentre = false;                      ///< move to the centre-of-mass frame on the way
};

/// Adds the "convert" subcommand; check it with `*subcommand` after parsing.
CLI::App* addConvertCommand(CLI::App& app, ConvertOptions& options);

/// Converts and reports on out; throws SnapshotError (exit status 1 in main) when reading or writing fails.
int runConvert(const ConvertOptions& options, std::ostream& out);

} // namespace gravlab
