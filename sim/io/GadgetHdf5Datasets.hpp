#pragma once
// The datasets of one PartType group: found and checked against the header's counts, then read into body arrays.
//
// Design note: a dataset is checked before anything is sized by it: its rows must equal the count the Header gives,
// its shape must be N x 3 (Coordinates, Velocities) or N (Masses, ParticleIDs), its numbers floating-point or integer
// as the field demands, its bytes stored in this file (no external files, no virtual datasets) and at least as many as
// its shape needs (a dataset never written or cut short is refused instead of read as fill values). The same checks
// run again when the data are read, so a file changed between the two passes cannot write past an allocation.
// Values are read in blocks of a megabyte through a hyperslab per block: each libhdf5 call moves enough to make its
// own cost vanish, the staging buffer stays in cache while it is de-interleaved into x, y, z, and the memory peak
// stays at the body arrays instead of a second copy of every dataset. Masses and ids stored as the arrays hold them
// (float32, uint64) are read straight into the arrays. Doubles are read as doubles and narrowed here, so a value
// beyond the float range is an error naming its row instead of an infinity. Where the caller asks for low parts (double
// precision, Precision.hpp), a double is kept as the float-float pair (float, remainder), so coordinates stored as
// float64 keep 48 of their 53 bits.
#include <gravlab/sim/Bodies.hpp>

#include <cfloat>
#include <cstdint>
#include <filesystem>
#include <hdf5.h>
#include <string>

namespace gravlab::io {

/// Where a dataset lives, for messages: the file and the particle type (group "PartType1").
struct DatasetPlace {
    const std::filesystem::path& file;
    std::size_t type;
};

enum class DatasetValues { Real, Integer };

/// Whether a mass is positive, finite and stays positive as a float (doubles at or below 2^-150 round to a zero float).
inline bool isFloatMass(double mass) {
    return mass > 0x1p-150 && mass <= double(FLT_MAX);
}
/// What is wrong with a mass that is not one, in words ("the mass 0 is not positive").
std::string massProblem(double mass);

/// Whether group holds the dataset; when it does, checks it holds rows x columns values (columns 1: a list of rows)
/// of the given kind, stored in this file. Throws SnapshotError naming the dataset and what is wrong.
bool inspectDataset(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, std::size_t columns,
                    DatasetValues values);

/// Whether the (required, checked) N x 3 dataset stores doubles.
bool datasetHoldsDoubles(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows);

/// Where the low parts of a triple go (each with room for rows), or all null for none.
struct LowTriple {
    float* x = nullptr;
    float* y = nullptr;
    float* z = nullptr;
};

/// Reads an N x 3 dataset of floats or doubles into x, y, z (each with room for rows); every value must be finite and
/// within the float range. With low parts given, low = value - float(value) for doubles, 0 for floats.
void readDatasetTriples(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, float* x,
                        float* y, float* z, LowTriple low = {});
/// Reads a list of masses (floats or doubles), each positive, finite and not zero once narrowed to a float.
void readDatasetMasses(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, float* mass);
/// Reads a list of ids (integers of any width; signed ones must not be negative).
void readDatasetIds(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, std::uint64_t* id);

} // namespace gravlab::io
