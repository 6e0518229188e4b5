#pragma once
// The command line's side-by-side comparison: --compare SOLVER[:THETA] and --compare-csv FILE.
//
// Design note: the flag's text is checked here, where the command line can name it: the solver against the registry
// (findSolver) and theta against kOpeningAngleRange, each refusal an InvalidParameterError for field "compare"
// quoting the value and listing what is allowed. Without ":THETA" the comparison run keeps the main run's theta, so
// "--compare tree" compares the tree against the main run's solver at the same opening angle. Whether the solver
// runs on the device and whether a second run fits in memory are known only when it is made (Comparison).
#include "CliDeclarations.hpp"
#include "session/Comparison.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace gravlab {

/// The comparison flags as typed, converted after parsing.
struct CompareFlags {
    std::string choice;
    int substeps = 1;
    std::filesystem::path csvFile;
};

void addCompareOptions(CLI::App& app, CompareFlags& flags);

/// "tree" or "tree:0.7" as a choice; mainOpeningAngle when no theta is given. Throws InvalidParameterError (field
/// "compare").
ComparisonChoice parseComparisonChoice(const std::string& text, double mainOpeningAngle);

/// The choice (with --compare-substeps) and the CSV file when the flags were given; throws InvalidParameterError
/// (field "compare", "compare-substeps" or "compare-csv") for a bad value, and for either of the last two without
/// --compare.
void completeCompareOptions(const CLI::App& app, const CompareFlags& flags, double mainOpeningAngle,
                            std::optional<ComparisonChoice>& choice, std::optional<std::filesystem::path>& csvFile);

} // namespace gravlab
