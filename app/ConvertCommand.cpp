// `gravlab convert`: read, optionally recentre, write, and report sizes and rates (see ConvertCommand.hpp).
#include "ConvertCommand.hpp"

#include "OptionParsing.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>

namespace gravlab {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// "1048576 bodies (1000000 dark matter, 48576 stars)".
std::string describeBodies(const Bodies& bodies) {
    std::array<std::size_t, kComponentCount> counts{};
    for (std::uint8_t component : bodies.component)
        ++counts[component < kComponentCount ? component : kDarkMatterComponent];
    std::string text = std::to_string(bodies.size()) + " bodies (";
    bool first = true;
    for (std::size_t c = 0; c < counts.size(); ++c) {
        if (counts[c] == 0)
            continue;
        text += (first ? "" : ", ") + std::to_string(counts[c]) + " " + componentName(std::uint8_t(c));
        first = false;
    }
    return text + ")";
}

/// "0.41 s, 1.64 GB/s" for the file's size on disk.
std::string rate(const std::filesystem::path& file, double seconds) {
    std::error_code error;
    const auto bytes = std::filesystem::file_size(file, error);
    char text[64];
    if (error || seconds <= 0)
        std::snprintf(text, sizeof text, "%.3g s", seconds);
    else
        std::snprintf(text, sizeof text, "%.3g s, %.3g GB/s", seconds, double(bytes) / seconds / 1e9);
    return text;
}

std::optional<SnapshotFormat> parseFormat(const std::string& text) {
    return parseEnumName<SnapshotFormat>(text);
}

} // namespace

CLI::App* addConvertCommand(CLI::App& app, ConvertOptions& options) {
    CLI::App* convert = app.add_subcommand(
        "convert", "convert a snapshot between tipsy, tipsy-native, hdf5 and csv, keeping every value bit for bit");
    convert->add_option("input", options.input, "snapshot to read (format detected from its first bytes)")
        ->required()
        ->type_name("IN");
    convert->add_option("output", options.output, "file to write (format from its extension: .tipsy .hdf5 .csv)")
        ->required()
        ->type_name("OUT");
    const std::string formats = listNames(EnumNames<SnapshotFormat>::entries);
    addNameOption(*convert, "from", options.inputFormat, parseFormat, "format of IN: " + formats, "detected");
    addNameOption(*convert, "to", options.outputFormat, parseFormat, "format of OUT: " + formats, "from the extension");
    convert->add_flag("--recentre", options.recentre, "move the bodies to their centre-of-mass frame");
    return convert;
}

int runConvert(const ConvertOptions& options, std::ostream& out) {
    const auto readStart = std::chrono::steady_clock::now();
    Snapshot snapshot = readSnapshot(options.input, options.inputFormat);
    const double readSeconds = secondsSince(readStart);
    out << "read " << options.input.string() << ": " << describeBodies(snapshot.bodies) << ", time " << snapshot.time
        << ", " << (snapshot.units ? snapshot.units->summary() : std::string("no units stated")) << " ("
        << rate(options.input, readSeconds) << ")\n";
    if (options.recentre)
        moveToCentreOfMassFrame(snapshot.bodies);
    const auto writeStart = std::chrono::steady_clock::now();
    writeSnapshot(options.output, snapshot, options.outputFormat);
    out << "wrote " << options.output.string() << " (" << rate(options.output, secondsSince(writeStart)) << ")\n";
    return 0;
}

} // namespace gravlab
