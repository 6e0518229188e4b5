#pragma once
// Converting command-line text into checked values, shared by the main command line and the subcommands.
//
// Design note: numbers are read with std::strtod so that "4096", "1e6" and "0.5" all work; the whole text must be
// consumed, the value must be finite, whole when asked for, and inside its ParamRange (include/gravlab/sim/SimParams.hpp), whose
// table also feeds the help texts. Every refusal is an InvalidParameterError naming the range's field and quoting the
// value as typed ("1e12", not "1e+12") with what is allowed. The main command line and the subcommands both add their
// numeric flags through addNumberOption, which turns a refusal into CLI::ValidationError("--flag", sentence), so every
// flag gives the same sentences.
#include <gravlab/sim/SimParams.hpp>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace gravlab {

/// What parseNumberInRange accepts besides the range: any finite number, or only whole ones (counts, sizes).
enum class NumberKind {
    Whole,
    Real,
};

/// value with up to 10 significant digits and no trailing zeros: "1.25", "4096", "1e-05".
std::string formatNumber(double value);

/// The bounds of range as a help text or an error states them: "1 <= bodies <= 268435456", "0 < dt <= 1".
std::string describeRange(const ParamRange& range);

/// The number in text, checked against range; throws InvalidParameterError(range.name, ...) such as
/// "bodies = 0 is out of range: allowed 1 <= bodies <= 268435456 (number of bodies)".
double parseNumberInRange(const ParamRange& range, const std::string& text, NumberKind kind);

/// A seed, any whole number from 0 to 2^64 - 1 written in decimal; throws InvalidParameterError("seed", ...).
std::uint64_t parseSeed(const std::string& text);

/// Returns convert(); an InvalidParameterError it throws becomes CLI::ValidationError("--" + flag, message), which
/// CLI11 reports as a usage error naming the flag. For option callbacks.
template <typename Convert> auto rethrowForFlag(std::string_view flag, Convert&& convert) -> decltype(convert()) {
    try {
        return std::forward<Convert>(convert)();
    } catch (const InvalidParameterError& error) {
        throw CLI::ValidationError("--" + std::string(flag), error.what());
    }
}

/// parseNumberInRange for an option's callback: a refusal is a CLI::ValidationError naming "--" + flag.
inline double parseNumberForFlag(std::string_view flag, const ParamRange& range, const std::string& text,
                                 NumberKind kind) {
    return rethrowForFlag(flag, [&] { return parseNumberInRange(range, text, kind); });
}

/// Adds the option "--" + range.name: its text goes through parseNumberForFlag into target (as Number);
/// the help is `what` followed by the range, the value is shown as INT or FLOAT (by kind) and the default is target's
/// value when the option is added. range must outlive command (the ranges are constants).
template <typename Number>
CLI::Option* addNumberOption(CLI::App& command, const ParamRange& range, NumberKind kind, Number& target,
                             const std::string& what) {
    const std::string flag(range.name);
    return command
        .add_option_function<std::string>(
            "--" + flag,
            [flag, &range, kind, &target](const std::string& text) {
                target = static_cast<Number>(parseNumberForFlag(flag, range, text, kind));
            },
            what + ", " + describeRange(range))
        ->type_name(kind == NumberKind::Whole ? "INT" : "FLOAT") // CLI11 would call the text option TEXT
        ->default_str(formatNumber(double(target)));
}

/// Adds the command's option "--" + flag for a name (a solver, a backend, a balance): parse(text) gives target's value
/// and throws InvalidParameterError for an unknown name, which becomes a CLI::ValidationError naming the flag. The help
/// is `what`; the default shown is `shown`.
template <typename Value, typename Parse>
CLI::Option* addNameOption(CLI::App& command, const std::string& flag, Value& target, Parse parse,
                           const std::string& what, const std::string& shown) {
    return command
        .add_option_function<std::string>(
            "--" + flag,
            [flag, &target, parse](const std::string& text) {
                target = rethrowForFlag(flag, [&] { return parse(text); });
            },
            what)
        ->type_name("NAME")
        ->default_str(shown);
}

} // namespace gravlab
