// Writing a snapshot as one HDF5 file in the GADGET-4 layout, which h5py, GADGET-4, AREPO and SWIFT-style readers
// open, and which our reader reads back bit for bit.
//
// Design note: the Header holds what GADGET-4 writes, in the types it writes them: NumPart_ThisFile and NumPart_Total
// as six uint64, MassTable as six doubles (zeros: every type has its Masses dataset), Time, Redshift and BoxSize as
// double scalars and NumFilesPerSnapshot as a 32-bit int; NumPart_Total_HighWord (six uint32 zeros) serves readers of
// the GADGET-2 era. Each particle type that has bodies gets a group PartTypeK with Coordinates and Velocities (float32
// N x 3; float64 when the bodies carry low parts, Precision.hpp, so a double-precision state keeps its 48 bits), Masses
// (float32 N) and ParticleIDs (uint64 N), its bodies in their order in the snapshot. Physical units go
// both where GADGET-4 puts them (attributes of the Parameters group) and where SWIFT does (the Units group), so either
// kind of reader finds them; our reader takes the GADGET ones first, which give the velocity unit without rounding.
// Datasets are contiguous, not chunked or compressed, and no fill value is written ahead of the data. The bodies of
// one type are gathered in blocks of 2^16 (1.5 MB of interleaved positions and velocities) and each block goes out
// with one H5Dwrite per dataset: writes of a megabyte or so in file order, each well above libhdf5's per-call cost,
// with the staging buffers in cache and no second copy of the snapshot in memory. When a type's bodies are consecutive
// (one component, or bodies grouped by component) masses and ids are written from the body arrays themselves.
// Every libhdf5 call is checked; a failure is a SnapshotError naming the target, the object being written and
// libhdf5's reason (a full disk shows as the system's "No space left on device").
#include "io/GadgetHdf5Layout.hpp"
#include "io/Hdf5Handles.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/FloatPair.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <type_traits>
#include <vector>

namespace gravlab::io {
namespace {

using namespace gadget;

constexpr std::size_t kBlockRows = std::size_t{1} << 16;

class GadgetHdf5Writer {
public:
    explicit GadgetHdf5Writer(const std::filesystem::path& target) : m_target(target) {}

    [[noreturn]] void fail(const std::string& what) const {
        const std::string reason = hdf5ErrorText();
        throw SnapshotError(m_target, "cannot write " + what + (reason.empty() ? std::string() : ": " + reason));
    }
    void check(herr_t status, const std::string& what) const {
        if (status < 0)
            fail(what);
    }
    template <typename Handle> Handle check(Handle handle, const std::string& what) const {
        if (!handle.valid())
            fail(what);
        return handle;
    }

    Hdf5File create(const std::filesystem::path& temporary) const {
        const auto access = check(Hdf5PropertyList(H5Pcreate(H5P_FILE_ACCESS)), "the file");
        // Closing the file closes whatever is still open in it (after a failure too), so the checked close at the
        // end is the moment the last bytes are written and no descriptor outlives it. Without a sieve buffer every
        // H5Dwrite goes to the file at once, so a full disk is reported by the write of the dataset it hit.
        check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), "the file");
        check(H5Pset_sieve_buf_size(access.get(), 0), "the file");
        return check(Hdf5File(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get())), "the file");
    }

    Hdf5Group group(hid_t file, const std::string& name) const {
        return check(Hdf5Group(H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), "group " + name);
    }

    /// count 0: a scalar attribute; otherwise a one-dimensional array of count values.
    void attribute(hid_t location, const std::string& where, const char* name, hid_t fileType, hid_t memoryType,
                   const void* values, std::size_t count = 0) const {
        const std::string what = where + " attribute " + name;
        const hsize_t length = count;
        const auto space =
            check(Hdf5Dataspace(count == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &length, nullptr)), what);
        auto attribute =
            check(Hdf5Attribute(H5Acreate2(location, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT)), what);
        check(H5Awrite(attribute.get(), memoryType, values), what);
        if (!attribute.close())
            fail(what);
    }
    void doubleAttribute(hid_t location, const std::string& where, const char* name, double value,
                         std::size_t count = 0) const {
        attribute(location, where, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, count);
    }

    Hdf5Dataset dataset(hid_t group, const std::string& groupName, const char* name, hid_t fileType, std::uint64_t rows,
                        std::size_t columns) const {
        const std::string what = "dataset " + groupName + "/" + name;
        const hsize_t dims[2] = {rows, columns};
        const auto space = check(Hdf5Dataspace(H5Screate_simple(columns == 1 ? 1 : 2, dims, nullptr)), what);
        const auto creation = check(Hdf5PropertyList(H5Pcreate(H5P_DATASET_CREATE)), what);
        check(H5Pset_fill_time(creation.get(), H5D_FILL_TIME_NEVER), what);
        return check(
            Hdf5Dataset(H5Dcreate2(group, name, fileType, space.get(), H5P_DEFAULT, creation.get(), H5P_DEFAULT)),
            what);
    }

    /// Writes rows [first, first + count) of a dataset from values (count x columns, interleaved).
    void rows(hid_t dataset, const std::string& name, hid_t memoryType, std::uint64_t first, std::size_t count,
              std::size_t columns, const void* values) const {
        const hsize_t start[2] = {first, 0};
        const hsize_t extent[2] = {count, columns};
        const std::string what =
            "dataset " + name + " rows " + std::to_string(first) + " to " + std::to_string(first + count - 1);
        const auto fileSpace = check(Hdf5Dataspace(H5Dget_space(dataset)), what);
        const auto memorySpace = check(Hdf5Dataspace(H5Screate_simple(columns == 1 ? 1 : 2, extent, nullptr)), what);
        check(H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr), what);
        check(H5Dwrite(dataset, memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, values), what);
    }

private:
    const std::filesystem::path& m_target;
};

void checkWritable(const std::filesystem::path& target, const Bodies& bodies) {
    if (!bodies.consistent())
        throw SnapshotError(target, "the body arrays differ in length; nothing was written");
    if (bodies.size() == 0)
        throw SnapshotError(target, "the snapshot holds no bodies; an HDF5 snapshot needs at least one");
    if (bodies.size() > kMaxSnapshotBodies)
        throw SnapshotError(target, "the snapshot holds " + std::to_string(bodies.size()) + " bodies, more than the " +
                                        std::to_string(kMaxSnapshotBodies) + " a snapshot file may hold");
    const auto wrong = std::find_if(bodies.component.begin(), bodies.component.end(),
                                    [](std::uint8_t component) { return component >= kComponentCount; });
    if (wrong != bodies.component.end())
        throw SnapshotError(target, "body " + std::to_string(wrong - bodies.component.begin()) + " has component " +
                                        std::to_string(*wrong) + ", but particle types go from 0 to 5");
}

void writeHeader(const GadgetHdf5Writer& writer, hid_t file, const Snapshot& snapshot,
                 const std::array<std::uint64_t, kComponentCount>& counts) {
    const Hdf5Group header = writer.group(file, kHeaderGroup);
    const hid_t group = header.get();
    const std::array<std::uint32_t, kComponentCount> highWords{};
    const std::array<double, kComponentCount> massTable{};
    const std::int32_t fileCount = 1;
    writer.attribute(group, kHeaderGroup, kCountThisFile, H5T_STD_U64LE, H5T_NATIVE_UINT64, counts.data(),
                     kComponentCount);
    writer.attribute(group, kHeaderGroup, kCountTotal, H5T_STD_U64LE, H5T_NATIVE_UINT64, counts.data(),
                     kComponentCount);
    writer.attribute(group, kHeaderGroup, kCountTotalHighWord, H5T_STD_U32LE, H5T_NATIVE_UINT32, highWords.data(),
                     kComponentCount);
    writer.attribute(group, kHeaderGroup, kMassTable, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, massTable.data(),
                     kComponentCount);
    writer.doubleAttribute(group, kHeaderGroup, kTime, snapshot.time);
    writer.doubleAttribute(group, kHeaderGroup, kRedshift, snapshot.redshift);
    writer.doubleAttribute(group, kHeaderGroup, kBoxSize, snapshot.boxSize);
    writer.attribute(group, kHeaderGroup, kFileCount, H5T_STD_I32LE, H5T_NATIVE_INT32, &fileCount);
}

void writeUnits(const GadgetHdf5Writer& writer, hid_t file, const UnitSystem& units) {
    {
        const Hdf5Group parameters = writer.group(file, kParametersGroup);
        writer.doubleAttribute(parameters.get(), kParametersGroup, kGadgetLengthInCm, units.lengthInCm);
        writer.doubleAttribute(parameters.get(), kParametersGroup, kGadgetMassInGrams, units.massInGrams);
        writer.doubleAttribute(parameters.get(), kParametersGroup, kGadgetVelocityInCmPerSecond,
                               units.velocityInCmPerSecond);
    }
    // SWIFT writes each of its five base units as an array of one double; current and temperature are cgs (1).
    const Hdf5Group swiftUnits = writer.group(file, kSwiftUnitsGroup);
    writer.doubleAttribute(swiftUnits.get(), kSwiftUnitsGroup, kSwiftLengthInCm, units.lengthInCm, 1);
    writer.doubleAttribute(swiftUnits.get(), kSwiftUnitsGroup, kSwiftMassInGrams, units.massInGrams, 1);
    writer.doubleAttribute(swiftUnits.get(), kSwiftUnitsGroup, kSwiftTimeInSeconds, units.timeInSeconds(), 1);
    writer.doubleAttribute(swiftUnits.get(), kSwiftUnitsGroup, kSwiftCurrentInAmperes, 1.0, 1);
    writer.doubleAttribute(swiftUnits.get(), kSwiftUnitsGroup, kSwiftTemperatureInKelvin, 1.0, 1);
}

/// Where the count bodies of a type lie when they are one run of consecutive bodies (a snapshot of one component,
/// or one grouped by component), so their masses and ids can be written from the body arrays as they are.
std::optional<std::size_t> consecutiveRun(const Bodies& bodies, std::uint8_t type, std::uint64_t count) {
    const auto begin = std::find(bodies.component.begin(), bodies.component.end(), type);
    if (std::uint64_t(bodies.component.end() - begin) < count ||
        !std::all_of(begin, begin + std::ptrdiff_t(count),
                     [type](std::uint8_t component) { return component == type; }))
        return std::nullopt;
    return std::size_t(begin - bodies.component.begin());
}

/// Coordinate i as the file stores it: the float, or in double precision the float-float pair joined to a double.
template <typename Real>
Real storedValue(const std::vector<float>& high, const std::vector<float>& low, std::size_t i) {
    if constexpr (std::is_same_v<Real, double>)
        return joinPair(high[i], low[i]);
    else
        return high[i];
}

/// Writes the count bodies of one particle type, in their order in the whole body set, block by block; positions and
/// velocities as Real (float, or double for bodies with low parts).
template <typename Real>
void writePartType(const GadgetHdf5Writer& writer, hid_t file, const Bodies& bodies, std::uint8_t type,
                   std::uint64_t count) {
    constexpr bool kDouble = std::is_same_v<Real, double>;
    const hid_t fileType = kDouble ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
    const hid_t memoryType = kDouble ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    const std::string groupName = partTypeGroup(type);
    const Hdf5Group group = writer.group(file, groupName);
    const Hdf5Dataset coordinates = writer.dataset(group.get(), groupName, kCoordinates, fileType, count, 3);
    const Hdf5Dataset velocities = writer.dataset(group.get(), groupName, kVelocities, fileType, count, 3);
    const Hdf5Dataset masses = writer.dataset(group.get(), groupName, kMasses, H5T_IEEE_F32LE, count, 1);
    const Hdf5Dataset ids = writer.dataset(group.get(), groupName, kParticleIds, H5T_STD_U64LE, count, 1);
    const std::string prefix = groupName + "/";

    const std::optional<std::size_t> run = consecutiveRun(bodies, type, count);
    const std::size_t blockRows = std::size_t(std::min<std::uint64_t>(count, kBlockRows));
    std::vector<Real> positionBlock(3 * blockRows), velocityBlock(3 * blockRows);
    std::vector<float> massBlock(run ? 0 : blockRows);
    std::vector<std::uint64_t> idBlock(run ? 0 : blockRows);
    std::size_t body = run.value_or(0); // the next body of the whole set to look at
    for (std::uint64_t first = 0; first < count; first += blockRows) {
        const std::size_t rows = std::size_t(std::min<std::uint64_t>(blockRows, count - first));
        const float* massRows = run ? &bodies.mass[body] : massBlock.data();
        const std::uint64_t* idRows = run ? &bodies.id[body] : idBlock.data();
        for (std::size_t row = 0; row < rows; ++body) {
            if (bodies.component[body] != type)
                continue;
            positionBlock[3 * row] = storedValue<Real>(bodies.x, bodies.xLow, body);
            positionBlock[3 * row + 1] = storedValue<Real>(bodies.y, bodies.yLow, body);
            positionBlock[3 * row + 2] = storedValue<Real>(bodies.z, bodies.zLow, body);
            velocityBlock[3 * row] = storedValue<Real>(bodies.vx, bodies.vxLow, body);
            velocityBlock[3 * row + 1] = storedValue<Real>(bodies.vy, bodies.vyLow, body);
            velocityBlock[3 * row + 2] = storedValue<Real>(bodies.vz, bodies.vzLow, body);
            if (!run) {
                massBlock[row] = bodies.mass[body];
                idBlock[row] = bodies.id[body];
            }
            ++row;
        }
        writer.rows(coordinates.get(), prefix + kCoordinates, memoryType, first, rows, 3, positionBlock.data());
        writer.rows(velocities.get(), prefix + kVelocities, memoryType, first, rows, 3, velocityBlock.data());
        writer.rows(masses.get(), prefix + kMasses, H5T_NATIVE_FLOAT, first, rows, 1, massRows);
        writer.rows(ids.get(), prefix + kParticleIds, H5T_NATIVE_UINT64, first, rows, 1, idRows);
    }
}

} // namespace

void writeGadgetHdf5(AtomicFile& out, const Snapshot& snapshot) {
    const Bodies& bodies = snapshot.bodies;
    checkWritable(out.target(), bodies);
    std::array<std::uint64_t, kComponentCount> counts{};
    for (const std::uint8_t component : bodies.component)
        ++counts[component];

    const Hdf5Session session;
    const GadgetHdf5Writer writer(out.target());
    Hdf5File file = writer.create(out.temporaryPath());
    writeHeader(writer, file.get(), snapshot, counts);
    if (snapshot.units && snapshot.units->physical())
        writeUnits(writer, file.get(), *snapshot.units);
    for (std::uint8_t type = 0; type < kComponentCount; ++type)
        if (counts[type] > 0)
            bodies.hasLowParts() ? writePartType<double>(writer, file.get(), bodies, type, counts[type])
                                 : writePartType<float>(writer, file.get(), bodies, type, counts[type]);
    if (!file.close())
        writer.fail("the file's last bytes (closing it failed)");
}

} // namespace gravlab::io
