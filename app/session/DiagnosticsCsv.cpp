// The diagnostics CSV writer (see DiagnosticsCsv.hpp).
#include "DiagnosticsCsv.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gravlab {
namespace {

const std::vector<std::string> kFixedColumns{
    "simulation_time [N-body time]",
    "step [steps]",
    "kinetic_energy [N-body energy]",
    "potential_energy [N-body energy]",
    "total_energy [N-body energy]",
    "relative_energy_error [|E-E0|/|E0|]",
    "momentum_drift [|P-P0|/sqrt(M(2K0+|W0|))]",
    "angular_momentum_drift [|L-L0|/|L0|]",
    "virial_ratio [2K/|W|]",
    "lagrangian_radius_10 [N-body length]",
    "lagrangian_radius_50 [N-body length]",
    "lagrangian_radius_90 [N-body length]",
    "measure_seconds [s]",
    "potential_method [tree or direct-fp64]",
    "opening_angle [theta; 0 for direct-fp64]",
};

std::vector<std::string> phaseNames(const DiagnosticsHistory& history) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < history.size(); ++i)
        for (const PhaseTiming& timing : history[i].stepTimings)
            if (std::find(names.begin(), names.end(), timing.phase) == names.end())
                names.push_back(timing.phase);
    return names;
}

void appendNumber(std::string& line, double value) {
    if (std::isnan(value)) {
        line += "nan";
        return;
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    line.append(buffer, result.ptr);
}

std::string rowOf(const DiagnosticsSample& sample, const std::vector<std::string>& phases) {
    const Diagnostics& d = sample.diagnostics;
    std::string line;
    for (const double value :
         {sample.simulationTime, double(sample.step), d.kineticEnergy, d.potentialEnergy, d.totalEnergy(),
          sample.relativeEnergyError, sample.momentumDrift, sample.angularMomentumDrift, sample.virialRatio,
          sample.lagrangianRadii[0], sample.lagrangianRadii[1], sample.lagrangianRadii[2], sample.measureSeconds}) {
        appendNumber(line, value);
        line += ',';
    }
    line += d.potentialMethod == PotentialMethod::Tree ? "tree," : "direct-fp64,";
    appendNumber(line, d.potentialOpeningAngle);
    for (const std::string& phase : phases) {
        line += ',';
        for (const PhaseTiming& timing : sample.stepTimings)
            if (timing.phase == phase)
                appendNumber(line, timing.milliseconds);
    }
    line += '\n';
    return line;
}

} // namespace

std::vector<std::string> diagnosticsCsvColumns(const DiagnosticsHistory& history) {
    std::vector<std::string> columns = kFixedColumns;
    for (const std::string& phase : phaseNames(history))
        columns.push_back("step_ms_" + phase + " [ms]");
    return columns;
}

void writeDiagnosticsCsv(const DiagnosticsHistory& history, const std::filesystem::path& file) {
    std::string text;
    const std::vector<std::string> columns = diagnosticsCsvColumns(history);
    for (std::size_t c = 0; c < columns.size(); ++c)
        text += (c == 0 ? "" : ",") + columns[c];
    text += '\n';
    const std::vector<std::string> phases = phaseNames(history);
    for (std::size_t i = 0; i < history.size(); ++i)
        text += rowOf(history[i], phases);
    AtomicFile out(file);
    out.write(text.data(), text.size());
    out.commit();
}

} // namespace gravlab
