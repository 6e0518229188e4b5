// The solver registry: the list of SolverList.def, looked up by name.
#include "solvers/SolverRegistration.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <stdexcept>
#include <vector>

namespace gravlab {

#define GRAVLAB_SOLVER(registration) SolverRegistration registration();
#include "solvers/SolverList.def"
#undef GRAVLAB_SOLVER

namespace {

const std::vector<SolverRegistration>& registrations() {
#define GRAVLAB_SOLVER(registration) registration(),
    static const std::vector<SolverRegistration> all{
#include "solvers/SolverList.def"
    };
#undef GRAVLAB_SOLVER
    return all;
}

const std::vector<SolverInfo>& infos() {
    static const std::vector<SolverInfo> all = [] {
        std::vector<SolverInfo> list;
        for (const SolverRegistration& registration : registrations())
            list.push_back(registration.info);
        return list;
    }();
    return all;
}

std::string namesRunningOn(Device device) {
    std::string names;
    for (const SolverInfo& info : infos())
        if (info.runsOn(device))
            names.append(names.empty() ? "'" : ", '").append(info.name).append("'");
    return names;
}

/// "'a', 'b' or 'c'".
std::string quotedNamesText(const std::vector<SolverInfo>& solvers) {
    std::string text;
    for (std::size_t i = 0; i < solvers.size(); ++i) {
        if (i > 0)
            text += i + 1 == solvers.size() ? " or " : ", ";
        text.append("'").append(solvers[i].name).append("'");
    }
    return text;
}

[[noreturn]] void throwUnknownSolver(std::string_view name) {
    throw InvalidParameterError("solver",
                                "solver = '" + std::string(name) + "' is not known: allowed " + solverNamesText());
}

} // namespace

std::string_view toString(Device device) {
    switch (device) {
    case Device::Cpu:
        return "cpu";
    case Device::Cuda:
        return "cuda";
    case Device::Gl:
        return "gl";
    }
    return "unknown device";
}

std::string SolverInfo::devicesText() const {
    std::vector<std::string_view> devices;
    for (const Device device : {Device::Cpu, Device::Cuda, Device::Gl})
        if (runsOn(device))
            devices.push_back(toString(device));
    std::string text;
    for (const std::string_view device : devices)
        text.append(text.empty() ? "" : ", ").append(device);
    return devices.size() == 1 ? text + " only" : text;
}

std::span<const SolverRegistration> solverRegistrations() {
    return registrations();
}

std::span<const SolverInfo> solverInfos() {
    return infos();
}

std::string solverNamesText() {
    return quotedNamesText(infos());
}

std::string solversTakingSofteningText(double softening) {
    std::vector<SolverInfo> taking;
    for (const SolverInfo& info : infos())
        if (softening >= info.minSoftening)
            taking.push_back(info);
    return quotedNamesText(taking);
}

const SolverRegistration& findSolverRegistration(std::string_view name) {
    for (const SolverRegistration& registration : registrations())
        if (registration.info.name == name)
            return registration;
    throwUnknownSolver(name);
}

const SolverInfo& findSolver(std::string_view name) {
    // From the info list, so every caller holds the same object for a solver and may compare addresses.
    for (const SolverInfo& info : infos())
        if (info.name == name)
            return info;
    throwUnknownSolver(name);
}

const SolverInfo& treeDrawingSolver() {
    for (const SolverInfo& info : infos())
        if (info.drawsTreeCells)
            return info;
    throw std::logic_error("no registered solver draws octree cells");
}

std::string solversHelpText() {
    std::string text;
    for (const SolverInfo& info : infos()) {
        if (!text.empty())
            text += "; ";
        text.append(info.name).append(" (").append(info.description).append(", ").append(info.devicesText());
        text += info.usesOpeningAngle ? ", --theta)" : ")";
    }
    return text;
}

void requireSolverRunsOn(const SolverInfo& solver, Device device, std::string_view why) {
    if (solver.runsOn(device))
        return;
    throw InvalidParameterError("solver", "solver = '" + std::string(solver.name) + "' runs on " +
                                              solver.devicesText() + ", and this simulation runs on the " +
                                              std::string(toString(device)) + " (" + std::string(why) +
                                              "): choose one of " + namesRunningOn(device));
}

} // namespace gravlab
