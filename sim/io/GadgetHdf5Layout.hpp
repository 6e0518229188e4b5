#pragma once
// The names of the GADGET-4 / SWIFT / AREPO HDF5 snapshot layout, shared by the reader and the writer.
//
// Design note: the layout is GADGET's (the format GADGET-2 introduced and GADGET-4, AREPO and SWIFT kept): a Header
// group whose attributes count the particles of each type in this file and in the whole snapshot, one group
// PartType0..5 per particle type holding N x 3 Coordinates and Velocities, N Masses (or one mass per type in the
// Header's MassTable) and N ParticleIDs. Units are where each code puts them: SWIFT in a Units group (length, mass and
// time), GADGET-4 in the attributes of its Parameters group and AREPO in its Header or Parameters group (length, mass
// and velocity). A snapshot may be split over NumFilesPerSnapshot files NAME.0.hdf5 .. NAME.{n-1}.hdf5.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <string>

namespace gravlab::io::gadget {

inline constexpr const char* kHeaderGroup = "Header";
inline constexpr const char* kParametersGroup = "Parameters";
inline constexpr const char* kSwiftUnitsGroup = "Units";

inline constexpr const char* kCountThisFile = "NumPart_ThisFile";
inline constexpr const char* kCountTotal = "NumPart_Total";
inline constexpr const char* kCountTotalHighWord = "NumPart_Total_HighWord";
inline constexpr const char* kMassTable = "MassTable";
inline constexpr const char* kTime = "Time";
inline constexpr const char* kRedshift = "Redshift";
inline constexpr const char* kBoxSize = "BoxSize";
inline constexpr const char* kFileCount = "NumFilesPerSnapshot";

inline constexpr const char* kCoordinates = "Coordinates";
inline constexpr const char* kVelocities = "Velocities";
inline constexpr const char* kMasses = "Masses";
inline constexpr const char* kParticleIds = "ParticleIDs";

/// GADGET-4 (Parameters) and AREPO (Header or Parameters): cgs scales of length, mass and velocity.
inline constexpr const char* kGadgetLengthInCm = "UnitLength_in_cm";
inline constexpr const char* kGadgetMassInGrams = "UnitMass_in_g";
inline constexpr const char* kGadgetVelocityInCmPerSecond = "UnitVelocity_in_cm_per_s";
/// SWIFT (Units): cgs scales of length, mass and time; current and temperature complete its set.
inline constexpr const char* kSwiftLengthInCm = "Unit length in cgs (U_L)";
inline constexpr const char* kSwiftMassInGrams = "Unit mass in cgs (U_M)";
inline constexpr const char* kSwiftTimeInSeconds = "Unit time in cgs (U_t)";
inline constexpr const char* kSwiftCurrentInAmperes = "Unit current in cgs (U_I)";
inline constexpr const char* kSwiftTemperatureInKelvin = "Unit temperature in cgs (U_T)";

/// "PartType1" for dark matter.
inline std::string partTypeGroup(std::size_t type) {
    return "PartType" + std::to_string(type);
}

/// How many entries of the per-type Header arrays a file may have: GADGET-4 can be built with more types than six and
/// SWIFT has seven (neutrinos), so longer arrays are read as long as the types past PartType5 hold nothing.
inline constexpr std::size_t kMaxTypeEntries = 64;

} // namespace gravlab::io::gadget
