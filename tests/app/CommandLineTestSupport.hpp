#pragma once
// The command line as the tests drive it: parseCommandLine on arguments written as strings, the program name added.
#include <CommandLine.hpp>
#include <string>
#include <vector>

namespace gravlab::test {

inline CommandLineOutcome parse(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), "gravlab");
    std::vector<const char*> argv;
    for (const std::string& argument : arguments)
        argv.push_back(argument.c_str());
    return parseCommandLine(static_cast<int>(argv.size()), argv.data());
}

} // namespace gravlab::test
