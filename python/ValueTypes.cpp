// gravlab.Units and gravlab.Diagnostics: read-only values with named attributes.
//
// Design note: both are small library structs copied into Python objects, with attribute names in Python's spelling
// (kinetic_energy, length_in_cm). Vectors (momenta) come out as numpy float64 arrays of 3, so that arithmetic on them
// works at once. Units can also be made from cgs scales, for write_snapshot and from_arrays in physical units; scales
// that are not positive finite numbers are refused (the library would fall back to N-body units silently).
#include "Bindings.hpp"
#include "NumpyArrays.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/Units.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace gravlab::python {
namespace {

py::array_t<double> vectorArray(const std::array<double, 3>& vector) {
    return ownedArray(std::vector<double>(vector.begin(), vector.end()));
}

UnitSystem unitsFromCgs(double lengthInCm, double massInGrams, double velocityInCmPerSecond) {
    for (const auto& [value, name] : {std::pair{lengthInCm, "length_in_cm"}, std::pair{massInGrams, "mass_in_g"},
                                      std::pair{velocityInCmPerSecond, "velocity_in_cm_per_s"}})
        if (!(value > 0) || !std::isfinite(value))
            throw py::value_error(std::string(name) + " = " + std::to_string(value) +
                                  " is not allowed: unit scales must be finite numbers > 0 (Units.nbody() gives "
                                  "N-body units)");
    return unitSystemFromCgs(lengthInCm, massInGrams, velocityInCmPerSecond);
}

std::string diagnosticsRepr(const Diagnostics& diagnostics) {
    char text[160];
    std::snprintf(text, sizeof text, "Diagnostics(kinetic_energy=%.9g, potential_energy=%.9g, total_energy=%.9g)",
                  diagnostics.kineticEnergy, diagnostics.potentialEnergy, diagnostics.totalEnergy());
    return text;
}

void bindUnits(py::module_& module) {
    py::class_<UnitSystem>(module, "Units",
                           "The unit system of lengths, masses and velocities; time is length / velocity and G follows "
                           "from them (N-body units: G = 1, no physical scale).")
        .def(py::init(&unitsFromCgs), py::arg("length_in_cm"), py::arg("mass_in_g"), py::arg("velocity_in_cm_per_s"),
             "Physical units from their cgs scales, e.g. Units(3.0857e21, 1.989e43, 1e5) for kpc, 1e10 Msun, km/s.")
        .def_static("nbody", &nbodyUnits, "The dimensionless N-body units of the built-in scenarios (G = 1).")
        .def_static("gadget", &gadgetDefaultUnits, "kpc, 1e10 Msun and km/s: GADGET's default (G = 43009.2).")
        .def_property_readonly("physical", &UnitSystem::physical, "Whether the units have physical scales.")
        .def_readonly("length_in_cm", &UnitSystem::lengthInCm, "Length unit in cm; 0 for N-body units.")
        .def_readonly("mass_in_g", &UnitSystem::massInGrams, "Mass unit in g; 0 for N-body units.")
        .def_readonly("velocity_in_cm_per_s", &UnitSystem::velocityInCmPerSecond,
                      "Velocity unit in cm/s; 0 for N-body units.")
        .def_property_readonly("time_in_s", &UnitSystem::timeInSeconds, "Time unit in s; 0 for N-body units.")
        .def_readonly("length_name", &UnitSystem::lengthName, "The length unit in words, e.g. 'kpc'.")
        .def_readonly("mass_name", &UnitSystem::massName, "The mass unit in words, e.g. '1e10 Msun'.")
        .def_readonly("velocity_name", &UnitSystem::velocityName, "The velocity unit in words, e.g. 'km/s'.")
        .def_property_readonly("time_name", &UnitSystem::timeName, "The time unit in words, e.g. '0.978 Gyr'.")
        .def_property_readonly("G", &UnitSystem::gravitationalConstant, "Newton's constant in these units.")
        .def_property_readonly("summary", &UnitSystem::summary, "One line, e.g. 'N-body units (G = 1)'.")
        .def("__eq__", [](const UnitSystem& a, const UnitSystem& b) { return a == b; })
        .def("__repr__", [](const UnitSystem& units) { return "<gravlab.Units " + units.summary() + ">"; });
}

void bindDiagnostics(py::module_& module) {
    py::class_<Diagnostics>(module, "Diagnostics",
                            "Conserved quantities of the bodies, summed in fp64 with the forces' Plummer softening.")
        .def_readonly("kinetic_energy", &Diagnostics::kineticEnergy, "K = sum m v^2 / 2.")
        .def_readonly("potential_energy", &Diagnostics::potentialEnergy,
                      "W = -G sum_{i<j} m_i m_j / sqrt(r_ij^2 + softening^2).")
        .def_property_readonly("total_energy", &Diagnostics::totalEnergy, "K + W, which leapfrog conserves.")
        .def_property_readonly("virial_ratio", &Diagnostics::virialRatio, "K / |W|: 0.5 in virial equilibrium.")
        .def_property_readonly(
            "linear_momentum", [](const Diagnostics& d) { return vectorArray(d.linearMomentum); },
            "sum m v, float64 array of 3.")
        .def_property_readonly(
            "angular_momentum", [](const Diagnostics& d) { return vectorArray(d.angularMomentum); },
            "sum m r x v about the origin, float64 array of 3.")
        .def("__repr__", &diagnosticsRepr);
}

} // namespace

void bindValueTypes(py::module_& module) {
    bindUnits(module);
    bindDiagnostics(module);
}

} // namespace gravlab::python
