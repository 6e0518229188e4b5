// The divergence history's ring buffer and its CSV file, read back here with a parser of the test's own (getline and
// strtod), so a column written in the wrong place or rounded fails.
#include "TestSupport.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <session/DivergenceCsv.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// Cells of one CSV line, split at commas (empty cells kept).
std::vector<std::string> cellsOf(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    std::string cell;
    while (std::getline(stream, cell, ','))
        cells.push_back(cell);
    if (!line.empty() && line.back() == ',')
        cells.emplace_back();
    return cells;
}

DivergenceSample randomSample(std::mt19937_64& random, bool energyMeasured) {
    std::uniform_real_distribution<double> value(1e-9, 10.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {.simulationTime = value(random),
            .rmsPositionDifference = value(random),
            .rmsOverHalfMassRadius = value(random),
            .maxPositionDifference = value(random),
            .energyErrorA = energyMeasured ? value(random) : nan,
            .energyErrorB = energyMeasured ? value(random) : nan};
}

TEST(DivergenceHistory, KeepsTheNewestSamplesOldestFirst) {
    DivergenceHistory history(3);
    for (int i = 1; i <= 5; ++i)
        history.push({.simulationTime = double(i)});
    ASSERT_EQ(history.size(), 3u);
    EXPECT_EQ(history[0].simulationTime, 3.0);
    EXPECT_EQ(history.latest().simulationTime, 5.0);
    EXPECT_THROW(history[3], std::out_of_range);
    EXPECT_EQ(history.latestWithEnergies(), &history[2]) << "energies 0 are measured ones";
    const double nan = std::numeric_limits<double>::quiet_NaN();
    history.push({.simulationTime = 6.0, .energyErrorA = nan, .energyErrorB = nan});
    ASSERT_NE(history.latestWithEnergies(), nullptr);
    EXPECT_EQ(history.latestWithEnergies()->simulationTime, 5.0);
    DivergenceHistory unmeasured(2);
    unmeasured.push({.simulationTime = 1.0, .energyErrorA = nan, .energyErrorB = nan});
    EXPECT_EQ(unmeasured.latestWithEnergies(), nullptr);
    EXPECT_THROW(DivergenceHistory(0), std::invalid_argument);
}

TEST(DivergenceCsv, ColumnsParseBackToTheSamplesWithEmptyCellsForUnmeasuredEnergies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    DivergenceHistory history(16);
    for (int i = 0; i < 20; ++i) // past capacity: the file holds the 16 newest
        history.push(randomSample(random, i % 3 == 0));
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "divergence.csv";
    writeDivergenceCsv(file, history);

    std::ifstream in(file);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(cellsOf(line),
              (std::vector<std::string>{"time", "rms_position_difference", "rms_over_half_mass_radius",
                                        "max_position_difference", "energy_error_main", "energy_error_comparison"}));
    std::size_t row = 0;
    for (; std::getline(in, line); ++row) {
        ASSERT_LT(row, history.size());
        const std::vector<std::string> cells = cellsOf(line);
        ASSERT_EQ(cells.size(), 6u) << line;
        const DivergenceSample& sample = history[row];
        const double expected[] = {sample.simulationTime,        sample.rmsPositionDifference,
                                   sample.rmsOverHalfMassRadius, sample.maxPositionDifference,
                                   sample.energyErrorA,          sample.energyErrorB};
        for (std::size_t column = 0; column < 6; ++column) {
            if (std::isnan(expected[column]))
                EXPECT_TRUE(cells[column].empty()) << "row " << row << " column " << column << ": " << line;
            else
                EXPECT_EQ(std::strtod(cells[column].c_str(), nullptr), expected[column])
                    << "row " << row << " column " << column;
        }
    }
    EXPECT_EQ(row, history.size());
}

TEST(DivergenceCsv, AnUnwritableFileIsRefusedNamingIt) {
    DivergenceHistory history(2);
    history.push({.simulationTime = 1.0});
    const std::filesystem::path file = "/nonexistent-folder-of-gravlab/divergence.csv";
    try {
        writeDivergenceCsv(file, history);
        FAIL() << "writing into a missing folder succeeded";
    } catch (const FileWriteError& error) {
        EXPECT_NE(std::string(error.what()).find("divergence.csv"), std::string::npos) << error.what();
    }
}

} // namespace
} // namespace gravlab::test
