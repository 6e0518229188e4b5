// --compare and --compare-csv (see CompareOptions.hpp).
#include "CompareOptions.hpp"

#include "OptionParsing.hpp"

#include <gravlab/sim/SolverRegistry.hpp>

namespace gravlab {

void addCompareOptions(CLI::App& app, CompareFlags& flags) {
    app.add_option("--compare", flags.choice,
                   "run the same initial conditions a second time with another solver (and theta), side by side: "
                   "left the main run, right the comparison, with their divergence (rms position difference, energy "
                   "errors) in the Compare panel, or printed after a headless run. THETA defaults to --theta")
        ->type_name("SOLVER[:THETA]");
    addNumberOption(app, kComparisonSubstepsRange, NumberKind::Whole, flags.substeps,
                    "the comparison run takes K steps of dt / K per main step (a time-step convergence study), so "
                    "both runs are compared at the same times")
        ->type_name("K")
        ->default_str("1");
    app.add_option("--compare-csv", flags.csvFile,
                   "write the comparison's divergence history (time, rms and largest position difference, energy "
                   "errors) to FILE as CSV when the run ends")
        ->type_name("FILE");
}

ComparisonChoice parseComparisonChoice(const std::string& text, double mainOpeningAngle) {
    const std::size_t colon = text.find(':');
    ComparisonChoice choice;
    const std::string solver = text.substr(0, colon);
    try {
        choice.solver = std::string(findSolver(solver).name);
    } catch (const InvalidParameterError& error) {
        throw InvalidParameterError("compare", "'" + text + "': " + error.what() + "; give SOLVER or SOLVER:THETA");
    }
    choice.openingAngle = mainOpeningAngle;
    if (colon != std::string::npos) {
        try {
            choice.openingAngle = parseNumberInRange(kOpeningAngleRange, text.substr(colon + 1), NumberKind::Real);
        } catch (const InvalidParameterError& error) {
            throw InvalidParameterError("compare", "'" + text + "': " + error.what());
        }
    }
    return choice;
}

void completeCompareOptions(const CLI::App& app, const CompareFlags& flags, double mainOpeningAngle,
                            std::optional<ComparisonChoice>& choice, std::optional<std::filesystem::path>& csvFile) {
    const bool comparing = app.count("--compare") > 0;
    if (comparing) {
        choice = parseComparisonChoice(flags.choice, mainOpeningAngle);
        choice->substeps = flags.substeps;
    } else if (app.count("--compare-substeps") > 0) {
        throw InvalidParameterError("compare-substeps", "there is no comparison run to substep: add --compare "
                                                        "SOLVER[:THETA]");
    }
    if (app.count("--compare-csv") > 0) {
        if (!comparing)
            throw InvalidParameterError("compare-csv", "there is no comparison to write: add --compare SOLVER[:THETA]");
        if (flags.csvFile.empty())
            throw InvalidParameterError("compare-csv", "the CSV file's name is empty; give one such as divergence.csv");
        csvFile = flags.csvFile;
    }
}

} // namespace gravlab
