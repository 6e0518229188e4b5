#pragma once
// CLI11's classes as the headers that add subcommands and options name them, without CLI11's definitions.
//
// Design note: CLI11 2.1 is header-only with every function defined inline, and including <CLI/CLI.hpp> costs a
// translation unit about ten seconds of compiling. The headers that declare addBenchCommand and its kind only pass
// CLI::App and CLI::Option by pointer or reference, so they declare the classes here, and only the .cpp files that
// build options (and OptionParsing.hpp, whose templates do) include CLI11 itself. That keeps CLI11 out of the tests and
// app files that merely use the parsed options.

namespace CLI {
class App;
class Option;
} // namespace CLI
