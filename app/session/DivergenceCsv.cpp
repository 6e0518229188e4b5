// The divergence history written as CSV through AtomicFile (see DivergenceCsv.hpp).
#include "DivergenceCsv.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <cmath>
#include <cstdio>

namespace gravlab {

namespace {

void appendNumber(std::string& text, double value) {
    if (std::isnan(value))
        return; // not measured: an empty cell
    char digits[32];
    std::snprintf(digits, sizeof(digits), "%.17g", value);
    text += digits;
}

} // namespace

std::string divergenceCsv(const DivergenceHistory& history) {
    std::string text = std::string(kDivergenceCsvHeader) + "\n";
    for (std::size_t i = 0; i < history.size(); ++i) {
        const DivergenceSample& sample = history[i];
        const double columns[] = {sample.simulationTime,        sample.rmsPositionDifference,
                                  sample.rmsOverHalfMassRadius, sample.maxPositionDifference,
                                  sample.energyErrorA,          sample.energyErrorB};
        for (std::size_t column = 0; column < std::size(columns); ++column) {
            if (column > 0)
                text += ',';
            appendNumber(text, columns[column]);
        }
        text += '\n';
    }
    return text;
}

void writeDivergenceCsv(const std::filesystem::path& file, const DivergenceHistory& history) {
    const std::string text = divergenceCsv(history);
    AtomicFile out(file);
    out.write(text.data(), text.size());
    out.commit();
}

} // namespace gravlab
