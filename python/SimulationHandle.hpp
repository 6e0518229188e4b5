#pragma once
// What a gravlab.Simulation object holds: the library's Simulation and the lock that keeps two Python threads from
// using it at once.
//
// Design note: everything that takes time (stepping, diagnostics, reading state, files, rendering) runs with the GIL
// released, so other Python threads keep running. A Simulation is not thread-safe, so every call locks this handle's
// mutex, and always in this order: GIL released first, then the mutex taken. Waiting for the mutex while holding the
// GIL could deadlock against a thread that holds the mutex and needs the GIL back to return. The work done under the
// lock is pure C++ and touches no Python object; results are turned into Python objects after the GIL is back.
#include <gravlab/sim/Simulation.hpp>

#include <memory>
#include <mutex>
#include <pybind11/pybind11.h>
#include <utility>

namespace gravlab::python {

class SimulationHandle {
public:
    explicit SimulationHandle(std::unique_ptr<Simulation> simulation) : m_simulation(std::move(simulation)) {}

    /// work(simulation)'s result, run with the GIL released and the simulation locked; work must not touch Python
    /// objects. Exceptions propagate after the lock is released and the GIL taken back.
    template <typename Work> auto locked(Work&& work) {
        pybind11::gil_scoped_release release;
        const std::lock_guard lock(m_mutex);
        return std::forward<Work>(work)(*m_simulation);
    }

private:
    std::unique_ptr<Simulation> m_simulation;
    std::mutex m_mutex;
};

} // namespace gravlab::python
