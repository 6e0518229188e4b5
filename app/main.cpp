// gravlab: parse the command line, run the window or headless mode, and turn every failure into a message and an
// exit status (0 success, 1 failure while running, 2 usage error or a run refused for lack of memory) instead of a
// crash.
#include "CommandLine.hpp"
#include "Launch.hpp"

#include <gravlab/sim/MemoryBudget.hpp>

#include <iostream>

int main(int argc, char** argv) {
    using namespace gravlab;
    try {
        const CommandLineOutcome outcome = parseCommandLine(argc, argv);
        if (outcome.bench)
            return runBench(*outcome.bench, std::cout, std::cerr);
        if (outcome.accuracy)
            return runAccuracy(*outcome.accuracy, std::cout, std::cerr);
        if (outcome.timeStepBench)
            return runTimeStepBench(*outcome.timeStepBench, std::cout, std::cerr);
        if (outcome.convert)
            return runConvert(*outcome.convert, std::cout);
        if (!outcome.options) {
            (outcome.exitCode == 0 ? std::cout : std::cerr) << outcome.message;
            return outcome.exitCode;
        }
        return runGravlab(*outcome.options, std::cout, std::cerr);
    } catch (const UsageError& error) {
        std::cerr << "gravlab: error: " << error.what() << '\n';
        return 2;
    } catch (const InvalidParameterError& error) {
        std::cerr << "gravlab: error: --" << error.field() << ": " << error.what() << '\n';
        return 2;
    } catch (const InsufficientMemoryError& error) {
        // Refused before anything was allocated: a request to change (fewer bodies), like a bad value.
        std::cerr << "gravlab: error: " << error.what() << '\n';
        return 2;
    } catch (const std::exception& error) {
        std::cerr << "gravlab: error: " << error.what() << '\n';
        return 1;
    } catch (...) {
        std::cerr << "gravlab: error: an unknown failure stopped gravlab\n";
        return 1;
    }
}
