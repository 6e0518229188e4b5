#pragma once
// The divergence history as a CSV file, for plotting the comparison elsewhere.
//
// Design note: one header row naming each column with its unit, then one row per sample, oldest first; numbers in
// %.17g, so a double read back is the double written. An energy error that was not measured at a sample is an empty
// cell (not "nan", which spreadsheets and numpy.loadtxt read differently). The file is written through AtomicFile:
// complete under its name or not there.
#include "DivergenceHistory.hpp"

#include <filesystem>
#include <string>

namespace gravlab {

/// The header row, without its line break.
inline constexpr const char* kDivergenceCsvHeader =
    "time,rms_position_difference,rms_over_half_mass_radius,max_position_difference,energy_error_main,"
    "energy_error_comparison";

/// The history as CSV text.
std::string divergenceCsv(const DivergenceHistory& history);

/// Writes divergenceCsv(history) to file; throws FileWriteError naming the file when it cannot be written.
void writeDivergenceCsv(const std::filesystem::path& file, const DivergenceHistory& history);

} // namespace gravlab
