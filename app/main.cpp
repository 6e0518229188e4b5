// gravlab: parse the command line, run the window or headless mode, and turn every failure into a message and an
// exit status (0 success, 1 failure while running, 2 usage error or a run refused for lack of memory) instead of a
// crash.
#include "CommandLine.hpp"
#include "Launch.hpp"
#include "MpiRanks.hpp"

#include <gravlab/sim/MemoryBudget.hpp>

#include <iostream>

int main(int argc, char** argv) {
    using namespace gravlab;
    // Under mpirun only rank 0 writes to the terminal; every rank runs the command (MpiRanks.hpp).
    std::ostream& out = rankZeroStream(std::cout);
    std::ostream& err = rankZeroStream(std::cerr);
    try {
        const CommandLineOutcome outcome = parseCommandLine(argc, argv);
        if (outcome.bench)
            return exitStatusAcrossRanks(runBench(*outcome.bench, out, err));
        if (outcome.accuracy)
            return exitStatusAcrossRanks(runAccuracy(*outcome.accuracy, out, err));
        if (outcome.timeStepBench)
            return exitStatusAcrossRanks(runTimeStepBench(*outcome.timeStepBench, out, err));
        if (outcome.convert) // no simulation, so no collective: rank 0 alone writes the file
            return exitStatusAcrossRanks(followsRankZero() ? 0 : runConvert(*outcome.convert, out));
        if (!outcome.options) {
            (outcome.exitCode == 0 ? out : err) << outcome.message;
            return exitStatusAcrossRanks(outcome.exitCode);
        }
        return exitStatusAcrossRanks(runGravlab(*outcome.options, out, err));
    } catch (const UsageError& error) {
        std::cerr << errorPrefix() << error.what() << '\n';
        return exitStatusAcrossRanks(2);
    } catch (const InvalidParameterError& error) {
        std::cerr << errorPrefix() << "--" << error.field() << ": " << error.what() << '\n';
        return exitStatusAcrossRanks(2);
    } catch (const InsufficientMemoryError& error) {
        // Refused before anything was allocated: a request to change (fewer bodies), like a bad value.
        std::cerr << errorPrefix() << error.what() << '\n';
        return exitStatusAcrossRanks(2);
    } catch (const std::exception& error) {
        std::cerr << errorPrefix() << error.what() << '\n';
        return exitStatusAcrossRanks(1);
    } catch (...) {
        std::cerr << errorPrefix() << "an unknown failure stopped gravlab\n";
        return exitStatusAcrossRanks(1);
    }
}
