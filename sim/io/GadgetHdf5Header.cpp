// The Header of one snapshot piece and the units it states, read and checked (see GadgetHdf5Header.hpp).
#include "io/GadgetHdf5Header.hpp"

#include "io/GadgetHdf5Layout.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

namespace gravlab::io {
namespace {

using namespace gadget;

/// The numeric attributes of one group, each read as a scalar or a one-dimensional array of at most kMaxTypeEntries.
class AttributeReader {
public:
    AttributeReader(hid_t location, std::string locationName, const std::filesystem::path& file)
        : m_location(location), m_locationName(std::move(locationName)), m_file(file) {}

    bool has(const char* name) const {
        const htri_t exists = H5Aexists(m_location, name);
        if (exists < 0)
            fail(name, "cannot be looked up: " + hdf5ErrorText());
        return exists > 0;
    }

    /// Integers or floating-point numbers, as doubles; nullopt when the attribute is absent.
    std::optional<std::vector<double>> numbers(const char* name) const {
        if (!has(name))
            return std::nullopt;
        const Opened opened = open(name);
        if (opened.typeClass != H5T_INTEGER && opened.typeClass != H5T_FLOAT)
            fail(name, "is not a number");
        std::vector<double> values(opened.count);
        if (H5Aread(opened.attribute.get(), H5T_NATIVE_DOUBLE, values.data()) < 0)
            fail(name, "cannot be read: " + hdf5ErrorText());
        return values;
    }

    /// One finite number (a scalar or an array of one, as SWIFT writes them); nullopt when absent.
    std::optional<double> number(const char* name) const {
        const auto values = numbers(name);
        if (!values)
            return std::nullopt;
        if (values->size() != 1)
            fail(name, "holds " + std::to_string(values->size()) + " values where one number is expected");
        if (!std::isfinite(values->front()))
            fail(name, "is " + std::to_string(values->front()) + ", not a finite number");
        return values->front();
    }

    /// Non-negative integers of any width and signedness; nullopt when absent.
    std::optional<std::vector<std::uint64_t>> counts(const char* name) const {
        if (!has(name))
            return std::nullopt;
        const Opened opened = open(name);
        if (opened.typeClass != H5T_INTEGER)
            fail(name, "is not an integer");
        std::vector<std::uint64_t> values(opened.count);
        if (H5Tget_sign(opened.type.get()) == H5T_SGN_2) {
            std::vector<std::int64_t> signedValues(opened.count);
            if (H5Aread(opened.attribute.get(), H5T_NATIVE_INT64, signedValues.data()) < 0)
                fail(name, "cannot be read: " + hdf5ErrorText());
            for (std::size_t i = 0; i < signedValues.size(); ++i) {
                if (signedValues[i] < 0)
                    fail(name, "entry " + std::to_string(i) + " is " + std::to_string(signedValues[i]) +
                                   ", a negative count");
                values[i] = std::uint64_t(signedValues[i]);
            }
        } else if (H5Aread(opened.attribute.get(), H5T_NATIVE_UINT64, values.data()) < 0) {
            fail(name, "cannot be read: " + hdf5ErrorText());
        }
        return values;
    }

    /// The first kComponentCount entries of a per-type array; the entries of types past PartType5 must be zero.
    TypeCounts perType(const std::vector<std::uint64_t>& values, const char* name) const {
        TypeCounts counts{};
        for (std::size_t type = 0; type < values.size(); ++type) {
            if (type < kComponentCount)
                counts[type] = values[type];
            else if (values[type] != 0)
                fail(name, "says particle type " + std::to_string(type) + " has " + std::to_string(values[type]) +
                               " bodies, but Gravlab reads particle types 0 to 5 only");
        }
        return counts;
    }

    [[noreturn]] void fail(const char* name, const std::string& problem) const {
        throw SnapshotError(m_file, m_locationName + " attribute " + name + " " + problem);
    }

private:
    struct Opened {
        Hdf5Attribute attribute;
        Hdf5Datatype type;
        H5T_class_t typeClass = H5T_NO_CLASS;
        std::size_t count = 0;
    };

    Opened open(const char* name) const {
        Opened opened;
        opened.attribute = Hdf5Attribute(H5Aopen(m_location, name, H5P_DEFAULT));
        if (!opened.attribute.valid())
            fail(name, "cannot be opened: " + hdf5ErrorText());
        const Hdf5Dataspace space(H5Aget_space(opened.attribute.get()));
        opened.type = Hdf5Datatype(H5Aget_type(opened.attribute.get()));
        if (!space.valid() || !opened.type.valid())
            fail(name, "cannot be inspected: " + hdf5ErrorText());
        const H5S_class_t spaceClass = H5Sget_simple_extent_type(space.get());
        if (spaceClass == H5S_SCALAR) {
            opened.count = 1;
        } else if (spaceClass == H5S_SIMPLE && H5Sget_simple_extent_ndims(space.get()) == 1) {
            hsize_t length = 0;
            H5Sget_simple_extent_dims(space.get(), &length, nullptr);
            if (length == 0 || length > kMaxTypeEntries)
                fail(name, "holds " + std::to_string(length) + " values; 1 to " + std::to_string(kMaxTypeEntries) +
                               " are expected");
            opened.count = std::size_t(length);
        } else {
            fail(name, "is neither a single value nor a one-dimensional array");
        }
        opened.typeClass = H5Tget_class(opened.type.get());
        if (!isStandardNumberType(opened.type.get()))
            fail(name, "is stored in an unusual number format; standard integers of 1 to 8 bytes and IEEE floats of 4 "
                       "or 8 bytes are read");
        return opened;
    }

    hid_t m_location;
    std::string m_locationName;
    const std::filesystem::path& m_file;
};

Hdf5Group openGroup(hid_t file, const char* name, const std::filesystem::path& path) {
    Hdf5Group group(H5Gopen2(file, name, H5P_DEFAULT));
    if (!group.valid())
        throw SnapshotError(path, std::string("the ") + name + " group cannot be opened: " + hdf5ErrorText());
    return group;
}

/// NumPart_Total, completed by GADGET-2's NumPart_Total_HighWord (the upper 32 bits of each count) where present;
/// this piece's own counts when the file gives no totals.
TypeCounts readTotals(const AttributeReader& attributes, const TypeCounts& countThisFile) {
    const auto lowWords = attributes.counts(kCountTotal);
    if (!lowWords)
        return countThisFile;
    const TypeCounts low = attributes.perType(*lowWords, kCountTotal);
    const auto highWords = attributes.counts(kCountTotalHighWord);
    const TypeCounts high = highWords ? attributes.perType(*highWords, kCountTotalHighWord) : TypeCounts{};
    constexpr std::uint64_t kWord = std::uint64_t{1} << 32;
    TypeCounts totals{};
    for (std::size_t type = 0; type < kComponentCount; ++type) {
        if (high[type] != 0 && (low[type] >= kWord || high[type] >= kWord))
            attributes.fail(kCountTotalHighWord, "entry " + std::to_string(type) + " (" + std::to_string(high[type]) +
                                                     ") and NumPart_Total's (" + std::to_string(low[type]) +
                                                     ") are not two 32-bit halves");
        totals[type] = low[type] + high[type] * kWord;
    }
    return totals;
}

void checkCounts(const AttributeReader& attributes, const GadgetHdf5Header& header, std::uint64_t maxBodies) {
    std::uint64_t sum = 0;
    for (std::size_t type = 0; type < kComponentCount; ++type) {
        if (header.countTotal[type] > maxBodies)
            attributes.fail(kCountTotal, "says particle type " + std::to_string(type) + " has " +
                                             std::to_string(header.countTotal[type]) + " bodies, more than the " +
                                             std::to_string(maxBodies) + " a snapshot may hold");
        sum += header.countTotal[type];
        if (header.countThisFile[type] > header.countTotal[type])
            attributes.fail(kCountThisFile, "says this file holds " + std::to_string(header.countThisFile[type]) +
                                                " bodies of particle type " + std::to_string(type) +
                                                ", more than the whole snapshot's " +
                                                std::to_string(header.countTotal[type]) + " (NumPart_Total)");
    }
    if (sum > maxBodies)
        attributes.fail(kCountTotal, "adds up to " + std::to_string(sum) + " bodies, more than the " +
                                         std::to_string(maxBodies) + " a snapshot may hold");
}

} // namespace

bool isStandardNumberType(hid_t type) {
    const hid_t standard[] = {H5T_STD_I8LE,  H5T_STD_I8BE,   H5T_STD_U8LE,   H5T_STD_U8BE,   H5T_STD_I16LE,
                              H5T_STD_I16BE, H5T_STD_U16LE,  H5T_STD_U16BE,  H5T_STD_I32LE,  H5T_STD_I32BE,
                              H5T_STD_U32LE, H5T_STD_U32BE,  H5T_STD_I64LE,  H5T_STD_I64BE,  H5T_STD_U64LE,
                              H5T_STD_U64BE, H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE};
    return std::any_of(std::begin(standard), std::end(standard),
                       [type](hid_t candidate) { return H5Tequal(type, candidate) > 0; });
}

bool hasLocalLink(hid_t loc, const char* name, const std::filesystem::path& file, const std::string& where) {
    const htri_t exists = H5Lexists(loc, name, H5P_DEFAULT);
    if (exists < 0)
        throw SnapshotError(file, std::string(name) + " cannot be looked up: " + hdf5ErrorText(), where);
    if (exists == 0)
        return false;
    H5L_info_t info{};
    if (H5Lget_info(loc, name, &info, H5P_DEFAULT) < 0)
        throw SnapshotError(file, std::string(name) + " cannot be inspected: " + hdf5ErrorText(), where);
    if (info.type != H5L_TYPE_HARD && info.type != H5L_TYPE_SOFT)
        throw SnapshotError(file,
                            std::string(name) + " is a link into another file; Gravlab reads only the files of the "
                                                "snapshot itself",
                            where);
    return true;
}

GadgetHdf5Header readGadgetHdf5Header(hid_t file, const std::filesystem::path& name, std::uint64_t maxBodies) {
    if (!hasLocalLink(file, kHeaderGroup, name, "root group"))
        throw SnapshotError(name,
                            "there is no Header group, so this HDF5 file is not a GADGET, SWIFT or AREPO snapshot");
    const Hdf5Group group = openGroup(file, kHeaderGroup, name);
    const AttributeReader attributes(group.get(), kHeaderGroup, name);

    GadgetHdf5Header header;
    const auto countThisFile = attributes.counts(kCountThisFile);
    if (!countThisFile)
        attributes.fail(kCountThisFile, "is missing; it says how many bodies of each particle type the file holds");
    header.countThisFile = attributes.perType(*countThisFile, kCountThisFile);
    header.countTotal = readTotals(attributes, header.countThisFile);
    checkCounts(attributes, header, maxBodies);

    if (const auto masses = attributes.numbers(kMassTable))
        std::copy_n(masses->begin(), std::min(masses->size(), header.massTable.size()), header.massTable.begin());
    header.time = attributes.number(kTime).value_or(0.0);
    header.redshift = attributes.number(kRedshift).value_or(0.0);
    if (const auto sides = attributes.numbers(kBoxSize)) {
        if (sides->size() != 1 && sides->size() != 3)
            attributes.fail(kBoxSize, "holds " + std::to_string(sides->size()) + " values; 1 or 3 are expected");
        for (const double side : *sides)
            if (!std::isfinite(side) || side < 0)
                attributes.fail(kBoxSize, "holds " + std::to_string(side) + ", not a side length");
        header.boxSize = *std::max_element(sides->begin(), sides->end());
    }
    if (const auto fileCount = attributes.counts(kFileCount)) {
        if (fileCount->size() != 1 || fileCount->front() == 0 || fileCount->front() > kMaxSnapshotPieces)
            attributes.fail(kFileCount, "is not a file count from 1 to " + std::to_string(kMaxSnapshotPieces));
        header.fileCount = fileCount->front();
    }
    return header;
}

std::optional<UnitSystem> readGadgetHdf5Units(hid_t file, const std::filesystem::path& name) {
    struct UnitSource {
        const char* group;
        const char* length;
        const char* mass;
        const char* velocityOrTime; ///< GADGET and AREPO give the velocity unit, SWIFT the time unit
        bool givesTime;
    };
    // GADGET's own names first: they give the velocity unit directly, so a file written with both (ours) reads back
    // without the rounding of length / time.
    constexpr std::array kSources{
        UnitSource{kParametersGroup, kGadgetLengthInCm, kGadgetMassInGrams, kGadgetVelocityInCmPerSecond, false},
        UnitSource{kHeaderGroup, kGadgetLengthInCm, kGadgetMassInGrams, kGadgetVelocityInCmPerSecond, false},
        UnitSource{kSwiftUnitsGroup, kSwiftLengthInCm, kSwiftMassInGrams, kSwiftTimeInSeconds, true}};
    for (const UnitSource& source : kSources) {
        if (!hasLocalLink(file, source.group, name, "root group"))
            continue;
        const Hdf5Group group = openGroup(file, source.group, name);
        const AttributeReader attributes(group.get(), source.group, name);
        const auto length = attributes.number(source.length);
        const auto mass = attributes.number(source.mass);
        const auto third = attributes.number(source.velocityOrTime);
        if (!length || !mass || !third || !(*third > 0))
            continue;
        const UnitSystem units = unitSystemFromCgs(*length, *mass, source.givesTime ? *length / *third : *third);
        if (units.physical())
            return units;
    }
    return std::nullopt;
}

} // namespace gravlab::io
