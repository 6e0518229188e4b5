// The datasets of a PartType group: checked, then read in blocks and narrowed to floats (see GadgetHdf5Datasets.hpp).
#include "io/GadgetHdf5Datasets.hpp"

#include "io/GadgetHdf5Header.hpp"
#include "io/GadgetHdf5Layout.hpp"
#include "io/Hdf5Handles.hpp"

#include <gravlab/sim/FloatPair.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace gravlab::io {
namespace {

/// Bytes of one staging block: enough per libhdf5 call to make its cost vanish, small enough to stay in the cache.
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

std::string formatNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

std::string datasetName(const DatasetPlace& place, const char* name) {
    return "dataset " + gadget::partTypeGroup(place.type) + "/" + name;
}

[[noreturn]] void failDataset(const DatasetPlace& place, const char* name, const std::string& problem) {
    throw SnapshotError(place.file, datasetName(place, name) + " " + problem);
}

[[noreturn]] void failValue(const DatasetPlace& place, const char* name, std::uint64_t firstRow, std::size_t index,
                            std::size_t columns, const std::string& problem) {
    std::string where = "row " + std::to_string(firstRow + index / columns);
    if (columns > 1)
        where += " column " + std::to_string(index % columns);
    throw SnapshotError(place.file, datasetName(place, name) + ": " + problem, where);
}

struct CheckedDataset {
    Hdf5Dataset dataset;
    std::size_t valueBytes = 0; ///< bytes of one stored value
    bool isSigned = false;
};

void checkShape(const CheckedDataset& checked, const char* name, const DatasetPlace& place, std::uint64_t rows,
                std::size_t columns) {
    const Hdf5Dataspace space(H5Dget_space(checked.dataset.get()));
    if (!space.valid() || H5Sget_simple_extent_type(space.get()) != H5S_SIMPLE)
        failDataset(place, name, "is not an array of values");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    hsize_t dims[H5S_MAX_RANK] = {};
    if (rank < 1 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space.get(), dims, nullptr) != rank)
        failDataset(place, name, "has a shape libhdf5 cannot report: " + hdf5ErrorText());
    std::string shape = std::to_string(dims[0]);
    for (int axis = 1; axis < rank; ++axis)
        shape += " x " + std::to_string(dims[axis]);
    if (columns == 1 ? rank != 1 : (rank != 2 || dims[1] != columns))
        failDataset(place, name,
                    "has shape " + shape + ", but " + name + " must be " +
                        (columns == 1 ? std::string("a list of N values") : "N x " + std::to_string(columns)));
    if (dims[0] != rows)
        failDataset(place, name,
                    "has " + std::to_string(dims[0]) + " rows, but Header NumPart_ThisFile[" +
                        std::to_string(place.type) + "] says " + std::to_string(rows));
}

void checkValues(CheckedDataset& checked, const char* name, const DatasetPlace& place, DatasetValues values) {
    const Hdf5Datatype type(H5Dget_type(checked.dataset.get()));
    const H5T_class_t typeClass = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
    if (values == DatasetValues::Real && typeClass == H5T_INTEGER)
        failDataset(place, name, "holds integers; it must hold floating-point numbers (float or double)");
    if (values == DatasetValues::Real && typeClass != H5T_FLOAT)
        failDataset(place, name, "does not hold numbers; it must hold floating-point numbers (float or double)");
    if (values == DatasetValues::Integer && typeClass != H5T_INTEGER)
        failDataset(place, name, "does not hold integers; particle ids must be integers");
    if (!isStandardNumberType(type.get()))
        failDataset(place, name,
                    "is stored in an unusual number format; standard integers of 1 to 8 bytes and IEEE "
                    "floats of 4 or 8 bytes are read");
    checked.valueBytes = H5Tget_size(type.get());
    checked.isSigned = typeClass == H5T_INTEGER && H5Tget_sign(type.get()) == H5T_SGN_2;
}

void checkStorage(const CheckedDataset& checked, const char* name, const DatasetPlace& place, std::uint64_t rows,
                  std::size_t columns) {
    const Hdf5PropertyList creation(H5Dget_create_plist(checked.dataset.get()));
    if (!creation.valid())
        failDataset(place, name, "cannot be inspected: " + hdf5ErrorText());
    if (H5Pget_layout(creation.get()) == H5D_VIRTUAL)
        failDataset(place, name,
                    "is a virtual dataset drawing on other files; Gravlab reads only the values stored "
                    "in the snapshot's own files");
    if (H5Pget_external_count(creation.get()) != 0)
        failDataset(place, name,
                    "keeps its values in external files; Gravlab reads only the values stored in the "
                    "snapshot's own files");
    if (rows == 0)
        return;
    // Compressed data may take far fewer bytes than their shape; anything else must be stored in full.
    const bool compressed = H5Pget_nfilters(creation.get()) != 0;
    const hsize_t stored = H5Dget_storage_size(checked.dataset.get());
    const hsize_t needed = hsize_t(rows) * columns * checked.valueBytes;
    if (stored == 0 || (!compressed && stored < needed))
        failDataset(place, name,
                    "stores " + std::to_string(stored) + " bytes, fewer than the " + std::to_string(needed) +
                        " its shape needs: the file was cut short or the dataset never written");
}

std::optional<CheckedDataset> openChecked(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows,
                                          std::size_t columns, DatasetValues values) {
    if (!hasLocalLink(group, name, place.file, gadget::partTypeGroup(place.type) + " group"))
        return std::nullopt;
    CheckedDataset checked;
    checked.dataset = Hdf5Dataset(H5Dopen2(group, name, H5P_DEFAULT));
    if (!checked.dataset.valid())
        failDataset(place, name, "cannot be opened: " + hdf5ErrorText());
    checkShape(checked, name, place, rows, columns);
    checkValues(checked, name, place, values);
    checkStorage(checked, name, place, rows, columns);
    return checked;
}

CheckedDataset openRequired(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows,
                            std::size_t columns, DatasetValues values) {
    std::optional<CheckedDataset> checked = openChecked(group, name, place, rows, columns, values);
    if (!checked)
        failDataset(place, name,
                    std::string("is missing, and ") + gadget::partTypeGroup(place.type) + " holds " +
                        std::to_string(rows) + " bodies");
    return std::move(*checked);
}

/// Reads the dataset as memoryType, block by block, handing each block (count rows x columns values) to consume.
/// With a destination (room for rows x columns values) the blocks are read straight into it, otherwise through a
/// staging buffer.
template <typename Value, typename Consume>
void readBlocks(const CheckedDataset& checked, hid_t memoryType, const DatasetPlace& place, const char* name,
                std::uint64_t rows, std::size_t columns, Consume&& consume, Value* destination = nullptr) {
    const std::uint64_t blockRows = std::max<std::uint64_t>(1, kBlockBytes / (columns * sizeof(Value)));
    std::vector<Value> staging(destination ? 0 : std::size_t(std::min(rows, blockRows)) * columns);
    const Hdf5Dataspace fileSpace(H5Dget_space(checked.dataset.get()));
    const int rank = columns == 1 ? 1 : 2;
    for (std::uint64_t first = 0; first < rows; first += blockRows) {
        const std::uint64_t count = std::min(blockRows, rows - first);
        const hsize_t start[2] = {first, 0};
        const hsize_t extent[2] = {count, columns};
        Value* block = destination ? destination + first * columns : staging.data();
        const Hdf5Dataspace memorySpace(H5Screate_simple(rank, extent, nullptr));
        if (!fileSpace.valid() || !memorySpace.valid() ||
            H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr) < 0 ||
            H5Dread(checked.dataset.get(), memoryType, memorySpace.get(), fileSpace.get(), H5P_DEFAULT, block) < 0)
            failDataset(place, name,
                        "cannot be read at rows " + std::to_string(first) + " to " + std::to_string(first + count - 1) +
                            ": " + hdf5ErrorText());
        consume(static_cast<const Value*>(block), first, std::size_t(count));
    }
}

/// The index of the first value that is not a finite float (the caller knows there is one).
template <typename Value> std::size_t firstBeyondFloat(const Value* values, std::size_t count) {
    return std::size_t(
        std::find_if(values, values + count, [](Value value) { return !(std::abs(value) <= Value(FLT_MAX)); }) -
        values);
}

/// value as a float pair (FloatPair.hpp): the nearest float and the remainder. Values beyond the float range (refused
/// by the caller's check, which runs after the conversion) are clamped first, since converting them would be
/// undefined behaviour. NaN passes through.
template <typename Value> FloatPair splitInFloatRange(Value value) {
    if constexpr (sizeof(Value) > sizeof(float))
        return splitDouble(double(std::min(std::max(value, -Value(FLT_MAX)), Value(FLT_MAX))));
    else
        return {value, 0.0f};
}

std::string beyondFloatProblem(double value) {
    if (!std::isfinite(value))
        return "the value " + formatNumber(value) + " is not a finite number";
    return "the value " + formatNumber(value) + " is beyond the float range (largest " + formatNumber(FLT_MAX) + ")";
}

} // namespace

std::string massProblem(double mass) {
    if (!std::isfinite(mass))
        return "the mass " + formatNumber(mass) + " is not a finite number";
    if (mass <= 0)
        return "the mass " + formatNumber(mass) + " is not positive";
    if (mass > FLT_MAX)
        return "the mass " + formatNumber(mass) + " is beyond the float range (largest " + formatNumber(FLT_MAX) + ")";
    return "the mass " + formatNumber(mass) + " is too small for a float: it would be 0";
}

bool inspectDataset(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, std::size_t columns,
                    DatasetValues values) {
    return openChecked(group, name, place, rows, columns, values).has_value();
}

bool datasetHoldsDoubles(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows) {
    return openRequired(group, name, place, rows, 3, DatasetValues::Real).valueBytes > sizeof(float);
}

void readDatasetTriples(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, float* x,
                        float* y, float* z, LowTriple low) {
    const CheckedDataset checked = openRequired(group, name, place, rows, 3, DatasetValues::Real);
    // One pass stores and checks (the stores of a block found bad are discarded with the throw), so each value is
    // read from the staging buffer once.
    const auto store = [&](const auto* block, std::uint64_t first, std::size_t count) {
        using Value = std::remove_cv_t<std::remove_pointer_t<decltype(block)>>;
        bool allFit = true;
        for (std::size_t i = 0; i < count; ++i) {
            const Value a = block[3 * i], b = block[3 * i + 1], c = block[3 * i + 2];
            allFit &= std::abs(a) <= Value(FLT_MAX);
            allFit &= std::abs(b) <= Value(FLT_MAX);
            allFit &= std::abs(c) <= Value(FLT_MAX);
            const FloatPair pa = splitInFloatRange(a), pb = splitInFloatRange(b), pc = splitInFloatRange(c);
            x[first + i] = pa.high;
            y[first + i] = pb.high;
            z[first + i] = pc.high;
            if (low.x) {
                low.x[first + i] = pa.low;
                low.y[first + i] = pb.low;
                low.z[first + i] = pc.low;
            }
        }
        if (!allFit) {
            const std::size_t bad = firstBeyondFloat(block, 3 * count);
            failValue(place, name, first, bad, 3, beyondFloatProblem(double(block[bad])));
        }
    };
    if (checked.valueBytes <= sizeof(float))
        readBlocks<float>(checked, H5T_NATIVE_FLOAT, place, name, rows, 3, store);
    else
        readBlocks<double>(checked, H5T_NATIVE_DOUBLE, place, name, rows, 3, store);
}

void readDatasetMasses(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, float* mass) {
    const CheckedDataset checked = openRequired(group, name, place, rows, 1, DatasetValues::Real);
    const auto check = [&](const auto* block, std::uint64_t first, std::size_t count) {
        bool allFit = true;
        for (std::size_t i = 0; i < count; ++i)
            allFit &= isFloatMass(double(block[i]));
        if (!allFit) {
            const auto* bad =
                std::find_if(block, block + count, [](auto value) { return !isFloatMass(double(value)); });
            failValue(place, name, first, std::size_t(bad - block), 1, massProblem(double(*bad)));
        }
    };
    if (checked.valueBytes <= sizeof(float)) {
        readBlocks<float>(checked, H5T_NATIVE_FLOAT, place, name, rows, 1, check, mass);
        return;
    }
    readBlocks<double>(checked, H5T_NATIVE_DOUBLE, place, name, rows, 1,
                       [&](const double* block, std::uint64_t first, std::size_t count) {
                           check(block, first, count);
                           for (std::size_t i = 0; i < count; ++i)
                               mass[first + i] = float(block[i]); // in the float range: checked
                       });
}

void readDatasetIds(hid_t group, const char* name, const DatasetPlace& place, std::uint64_t rows, std::uint64_t* id) {
    const CheckedDataset checked = openRequired(group, name, place, rows, 1, DatasetValues::Integer);
    if (!checked.isSigned) {
        readBlocks<std::uint64_t>(
            checked, H5T_NATIVE_UINT64, place, name, rows, 1, [](const std::uint64_t*, std::uint64_t, std::size_t) {},
            id);
        return;
    }
    readBlocks<std::int64_t>(checked, H5T_NATIVE_INT64, place, name, rows, 1,
                             [&](const std::int64_t* block, std::uint64_t first, std::size_t count) {
                                 for (std::size_t i = 0; i < count; ++i) {
                                     if (block[i] < 0)
                                         failValue(place, name, first, i, 1,
                                                   "the id " + std::to_string(block[i]) + " is negative");
                                     id[first + i] = std::uint64_t(block[i]);
                                 }
                             });
}

} // namespace gravlab::io
