// Number and seed parsing for the command line (see OptionParsing.hpp).
#include "OptionParsing.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace gravlab {
namespace {

[[noreturn]] void throwRefused(const ParamRange& range, const std::string& valueText, const std::string& problem) {
    const std::string field(range.name);
    throw InvalidParameterError(field, field + " = " + valueText + " " + problem + ": allowed " + describeRange(range) +
                                           " (" + std::string(range.meaning) + ")");
}

} // namespace

std::string formatNumber(double value) {
    std::ostringstream text;
    text.precision(10);
    text << value;
    return text.str();
}

std::string describeRange(const ParamRange& range) {
    return formatNumber(range.min) + (range.minInclusive ? " <= " : " < ") + std::string(range.name) +
           " <= " + formatNumber(range.max);
}

double parseNumberInRange(const ParamRange& range, const std::string& text, NumberKind kind) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const bool parsed = !text.empty() && end == text.c_str() + text.size();
    // Text that is not a usable number is quoted; a number out of range is shown bare, both exactly as typed.
    const std::string quoted = "'" + text + "'";
    if (kind == NumberKind::Whole && (!parsed || !std::isfinite(value) || value != std::floor(value)))
        throwRefused(range, quoted, "is not a whole number");
    if (!parsed || std::isnan(value))
        throwRefused(range, quoted, "is not a number");
    if (std::isinf(value))
        throwRefused(range, quoted, "is not finite");
    const bool aboveMin = range.minInclusive ? value >= range.min : value > range.min;
    if (!aboveMin || value > range.max)
        throwRefused(range, text, "is out of range");
    return value;
}

std::uint64_t parseSeed(const std::string& text) {
    std::uint64_t seed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw InvalidParameterError("seed", "seed = '" + text + "' is not a whole number: allowed 0 <= seed <= " +
                                                std::to_string(std::numeric_limits<std::uint64_t>::max()));
    return seed;
}

} // namespace gravlab
