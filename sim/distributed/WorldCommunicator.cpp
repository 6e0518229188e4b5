// worldCommunicator(): MPI's world in builds with MPI when mpirun started the process, one rank otherwise
// (Communicator.hpp).
//
// Design note: a process that mpirun did not start never initialises MPI, so a plain `gravlab` run in a build with MPI
// behaves and costs exactly as one without it (OpenMPI's singleton start would spawn a helper daemon). mpirun and the
// PMI/PMIx launchers announce a rank through the environment.
#include "distributed/SingleRankCommunicator.hpp"

#include <cstdlib>

#if defined(GRAVLAB_HAS_MPI)
#include "distributed/MpiCommunicator.hpp"
#endif

namespace gravlab {

#if defined(GRAVLAB_HAS_MPI)
namespace {

bool startedByMpiLauncher() {
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(variable) != nullptr)
            return true;
    return false;
}

} // namespace
#endif

Communicator& worldCommunicator() {
#if defined(GRAVLAB_HAS_MPI)
    if (startedByMpiLauncher()) {
        static MpiCommunicator world;
        return world;
    }
#endif
    static SingleRankCommunicator alone;
    return alone;
}

} // namespace gravlab
