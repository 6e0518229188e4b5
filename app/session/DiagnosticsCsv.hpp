#pragma once
// The plots' time series as a CSV file a spreadsheet or a notebook reads: one row per sample, oldest first.
//
// Design note: the header names each column with its unit in brackets ("simulation_time [N-body time]"), no commas
// or quotes inside, so a plain split on commas reads it. Fixed columns first (time, step, energies, drifts, virial
// ratio, Lagrangian radii, measurement cost, potential method as a word and its theta in a column of its own, so no
// field needs quoting), then one "step_ms_<phase> [ms]" column per step phase
// in the order the phases first appear (a solver switch mid-run adds columns; rows without that phase leave it
// empty). Numbers are written with the shortest round-trip form (std::to_chars), NaN as "nan". Written through
// AtomicFile, so a failed write leaves the previous file or none, never half a table.
#include "DiagnosticsHistory.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace gravlab {

/// The header's column names, in file order, for history's samples.
std::vector<std::string> diagnosticsCsvColumns(const DiagnosticsHistory& history);

/// Writes history to file (replaced atomically). Throws FileWriteError naming the file when it cannot be written.
void writeDiagnosticsCsv(const DiagnosticsHistory& history, const std::filesystem::path& file);

} // namespace gravlab
