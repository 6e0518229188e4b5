// CSV snapshots: a header row x,y,z,vx,vy,vz,m or x,y,z,vx,vy,vz,m,id, then one body per row.
//
// Design note: the format for students and spreadsheets, so the reader is lenient where spreadsheets differ (spaces
// around fields, CRLF line ends, a UTF-8 byte-order mark, a last line with or without its newline, blank lines and
// '#' comment lines anywhere) and strict about content: every row has exactly the header's fields, every field is a
// number, every body passes the checks of all readers (ReadBodies.hpp), and each error names the line and the
// column. Numbers are parsed with std::from_chars (locale-free, exact rounding), and written with std::to_chars'
// shortest form that reads back as the same float, so a write-then-read gives the same bits. A value too small for a
// float reads as the float it rounds to (a subnormal, or 0 with its sign); one too large is an error. Without an id
// column bodies are numbered 0..N-1. Every body is component 1: CSV does not carry components, nor the time.
//
// Double precision (Precision.hpp): bodies with low parts are written after a comment line `# precision: double`,
// as the doubles their pairs hold (the shortest text that reads back as the same double). A file that starts with that
// line (before its header row) reads as double precision: every coordinate becomes the pair of the double d its text
// names, high = float(d) and low = float(d - high), so a written pair reads back as the same pair. Any other file
// reads as floats exactly as before. The line decides, not the numbers: a float written in its shortest form (0.1 for
// 0.1f) names a double that is not that float, so guessing from the digits would turn a single-precision file into a
// double one on the next read (or the reverse), and a round trip would change the state.
//
// The file is parsed in one pass over its mapped bytes into bodies sized for the file's line count (an upper bound)
// and trimmed at the end; the writer fills a 4 MB buffer and hands it whole to AtomicFile::write. Both run at a few
// hundred MB/s: 1M bodies in a fraction of a second.
#include "io/MappedFile.hpp"
#include "io/ReadBodies.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/Precision.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab::io {
namespace {

constexpr std::array<std::string_view, 8> kColumns{"x", "y", "z", "vx", "vy", "vz", "m", "id"};
constexpr std::size_t kColumnsWithoutId = 7;
constexpr std::string_view kExpectedHeader = "x,y,z,vx,vy,vz,m or x,y,z,vx,vy,vz,m,id";
constexpr std::size_t kWriteBufferBytes = std::size_t{4} << 20;
/// Room for one number or id in the writer's rows (the longest are a double's 24 and an id's 20 characters), and
/// for a whole row.
constexpr std::size_t kNumberRoom = 32;
constexpr std::size_t kLongestRow = 8 * (kNumberRoom + 1);

std::string_view trim(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

/// The text in quotes for a message, shortened and with bytes that are not printable ASCII written as \xNN.
std::string quoted(std::string_view text) {
    constexpr std::size_t kShown = 40;
    std::string result = "'";
    for (char c : text.substr(0, kShown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            result += c;
        } else {
            constexpr char kHex[] = "0123456789abcdef";
            result.append("\\x").append(1, kHex[byte >> 4]).append(1, kHex[byte & 15]);
        }
    }
    return result + (text.size() > kShown ? "...'" : "'");
}

/// The lines that carry content, numbered from 1 as an editor shows them; blank and '#' lines are skipped.
class ContentLines {
public:
    explicit ContentLines(std::span<const std::byte> bytes)
        : m_rest(reinterpret_cast<const char*>(bytes.data()), bytes.size()) {
        constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
        if (m_rest.starts_with(kByteOrderMark))
            m_rest.remove_prefix(kByteOrderMark.size());
    }

    /// The next content line without its line end, or false at the end of the text.
    bool next(std::string_view& line) {
        while (!m_rest.empty()) {
            const std::size_t end = std::min(m_rest.find('\n'), m_rest.size());
            line = m_rest.substr(0, end);
            m_rest.remove_prefix(std::min(end + 1, m_rest.size()));
            ++m_number;
            if (line.ends_with('\r'))
                line.remove_suffix(1);
            const std::string_view content = trim(line);
            if (!content.empty() && content.front() != '#')
                return true;
        }
        return false;
    }
    std::size_t number() const { return m_number; }

private:
    std::string_view m_rest;
    std::size_t m_number = 0;
};

/// Splits a line at commas into at most fields.size() trimmed fields; returns how many the line has in all.
template <std::size_t N> std::size_t splitFields(std::string_view line, std::array<std::string_view, N>& fields) {
    std::size_t count = 0;
    while (true) {
        const std::size_t comma = line.find(',');
        if (count < N)
            fields[count] = trim(line.substr(0, comma));
        ++count;
        if (comma == std::string_view::npos)
            return count;
        line.remove_prefix(comma + 1);
    }
}

/// The number of columns the header row names: 7 (no ids) or 8.
std::size_t parseHeader(std::string_view line, std::size_t lineNumber, const std::filesystem::path& file) {
    std::array<std::string_view, kColumns.size()> fields;
    const std::size_t count = splitFields(line, fields);
    const bool known = (count == kColumnsWithoutId || count == kColumns.size()) &&
                       std::equal(fields.begin(), fields.begin() + std::ptrdiff_t(count), kColumns.begin());
    if (!known)
        throw SnapshotError(file, "the header row is " + quoted(line) + ", not " + std::string(kExpectedHeader),
                            "line " + std::to_string(lineNumber));
    return count;
}

/// For a number std::from_chars found out of a float's range: whether it is below the range (it rounds to 0) rather
/// than above it. Such numbers are below 1e-45 or above 3e38 in magnitude, so the decimal exponent of the first
/// nonzero digit decides; it is summed with saturation, as the written exponent may have any number of digits.
bool roundsToZero(std::string_view number) {
    if (number.starts_with('-'))
        number.remove_prefix(1);
    const std::size_t exponentMark = std::min(number.find_first_of("eE"), number.size());
    const std::string_view mantissa = number.substr(0, exponentMark);
    std::string_view exponentText = number.substr(std::min(exponentMark + 1, number.size()));
    const bool negativeExponent = exponentText.starts_with('-');
    if (exponentText.starts_with('-') || exponentText.starts_with('+'))
        exponentText.remove_prefix(1);
    constexpr std::int64_t kSaturated = std::int64_t{1} << 40;
    std::int64_t exponent = 0;
    if (!exponentText.empty() &&
        std::from_chars(exponentText.data(), exponentText.data() + exponentText.size(), exponent).ec != std::errc{})
        exponent = kSaturated; // too many digits for 64 bits: any bound far beyond a float's range will do
    exponent = std::min(exponent, kSaturated) * (negativeExponent ? -1 : 1);
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t firstNonZero = std::min(mantissa.find_first_of("123456789"), mantissa.size());
    const std::int64_t leading =
        firstNonZero < point ? std::int64_t(point - firstNonZero) : -std::int64_t(firstNonZero - point - 1);
    return leading + exponent <= 0;
}

constexpr std::string_view kDoublePrecisionLine = "# precision: double";

/// Whether the comment lines before the header row include kDoublePrecisionLine.
bool declaresDoublePrecision(std::span<const std::byte> bytes) {
    std::string_view rest(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (rest.starts_with("\xEF\xBB\xBF"))
        rest.remove_prefix(3);
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        std::string_view line = trim(rest.substr(0, end));
        if (line.ends_with('\r'))
            line = trim(line.substr(0, line.size() - 1));
        if (line == kDoublePrecisionLine)
            return true;
        if (!line.empty() && line.front() != '#')
            return false; // the header row: comments after it do not count
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    return false;
}

/// The doubles the six coordinate columns name, for every row parsed so far (a file declaring double precision).
struct CsvDoubles {
    std::array<std::vector<double>, 6> columns;

    explicit CsvDoubles(std::size_t rows) {
        for (std::vector<double>& column : columns)
            column.resize(rows);
    }
    /// The first count rows' coordinates of bodies become the pairs of their doubles.
    void keepIn(Bodies& bodies, std::size_t count) const {
        convertPrecision(bodies, Precision::Double);
        const auto highs = pairedArrays(bodies);
        const auto lows = lowPartArrays(bodies);
        for (std::size_t k = 0; k < highs.size(); ++k)
            for (std::size_t i = 0; i < count; ++i) {
                const FloatPair pair = splitDouble(columns[k][i]);
                (*highs[k])[i] = pair.high;
                (*lows[k])[i] = pair.low == 0.0f ? 0.0f : pair.low; // one zero: an underflow may give -0
            }
    }
};

class RowParser {
public:
    RowParser(const std::filesystem::path& file, std::size_t lineNumber) : m_file(file), m_lineNumber(lineNumber) {}

    float parseFloat(std::string_view field, std::size_t column) const {
        std::string_view digits = field;
        if (digits.starts_with('+') && !digits.substr(1).starts_with('-'))
            digits.remove_prefix(1);
        float value = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (end != digits.data() + digits.size() || digits.empty() || error == std::errc::invalid_argument)
            fail(column, quoted(field) + " is not a number");
        if (error == std::errc::result_out_of_range) {
            if (!roundsToZero(digits))
                fail(column, quoted(field) + " is too large for a float (at most " +
                                 floatText(std::numeric_limits<float>::max()) + ")");
            value = digits.starts_with('-') ? -0.0f : 0.0f; // what a float holds of it
        }
        return value;
    }

    /// Coordinate column (0..5) of row: its float, with the double the text names kept in doubles when there are.
    float parseCoordinate(std::string_view field, std::size_t column, std::size_t row,
                          std::optional<CsvDoubles>& doubles) const {
        const float value = parseFloat(field, column);
        if (!doubles)
            return value;
        std::string_view digits = field;
        if (digits.starts_with('+'))
            digits.remove_prefix(1);
        double named = value; // a number below a float's range reads as the float it rounds to, in both precisions
        if (std::from_chars(digits.data(), digits.data() + digits.size(), named).ec != std::errc{})
            named = value;
        doubles->columns[column][row] = named;
        return value;
    }

    std::uint64_t parseId(std::string_view field, std::size_t column) const {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (field.empty() || end != field.data() + field.size() || error != std::errc{})
            fail(column, quoted(field) + " is not an id (a whole number from 0 to " +
                             std::to_string(std::numeric_limits<std::uint64_t>::max()) + ")");
        return value;
    }

private:
    [[noreturn]] void fail(std::size_t column, const std::string& problem) const {
        throw SnapshotError(m_file, problem,
                            "line " + std::to_string(m_lineNumber) + ", column " + std::string(kColumns[column]));
    }

    const std::filesystem::path& m_file;
    std::size_t m_lineNumber;
};

/// An upper bound on the rows: the line count, capped at one more than a snapshot may hold (that row is refused).
std::size_t rowCapacity(std::span<const std::byte> bytes) {
    const auto newlines = std::size_t(std::count(bytes.begin(), bytes.end(), std::byte{'\n'}));
    return std::min<std::size_t>(newlines + 1, kMaxSnapshotBodies + 1);
}

/// Appends one row of the writer's format: floats, or the pairs' doubles for bodies with low parts.
char* formatRow(char* at, const Bodies& bodies, std::size_t i) {
    const auto highs = pairedArrays(bodies);
    const auto lows = lowPartArrays(bodies);
    const bool pairs = bodies.hasLowParts();
    for (std::size_t k = 0; k < highs.size(); ++k) {
        const float high = (*highs[k])[i];
        if (pairs) {
            at = std::to_chars(at, at + kNumberRoom, joinPair(high, (*lows[k])[i])).ptr;
        } else {
            at = std::to_chars(at, at + kNumberRoom, high).ptr;
        }
        *at++ = ',';
    }
    at = std::to_chars(at, at + kNumberRoom, bodies.mass[i]).ptr;
    *at++ = ',';
    at = std::to_chars(at, at + kNumberRoom, bodies.id[i]).ptr;
    *at++ = '\n';
    return at;
}

} // namespace

bool looksLikeCsv(std::span<const std::byte> bytes) {
    ContentLines lines(bytes);
    std::string_view line;
    if (!lines.next(line))
        return false;
    std::array<std::string_view, 3> fields;
    return splitFields(line, fields) >= fields.size() && fields[0] == "x" && fields[1] == "y" && fields[2] == "z";
}

Snapshot parseCsv(std::span<const std::byte> bytes, const std::filesystem::path& file) {
    if (bytes.empty())
        throw SnapshotError(file, "the file is empty: a CSV snapshot starts with the header row " +
                                      std::string(kExpectedHeader));
    ContentLines lines(bytes);
    std::string_view line;
    if (!lines.next(line))
        throw SnapshotError(file, "no header row " + std::string(kExpectedHeader) +
                                      ": the file has only blank or "
                                      "comment lines");
    const std::size_t columns = parseHeader(line, lines.number(), file);

    Snapshot snapshot;
    Bodies& bodies = snapshot.bodies;
    allocateBodies(bodies, rowCapacity(bytes), file);
    std::optional<CsvDoubles> doubles;
    if (declaresDoublePrecision(bytes))
        doubles.emplace(bodies.size());
    std::size_t count = 0;
    std::array<std::string_view, kColumns.size()> fields;
    while (lines.next(line)) {
        const std::size_t lineNumber = lines.number();
        const auto where = [&] { return "line " + std::to_string(lineNumber); };
        if (count == kMaxSnapshotBodies)
            throw SnapshotError(file,
                                "more than the " + std::to_string(kMaxSnapshotBodies) +
                                    " bodies a snapshot may "
                                    "hold",
                                where());
        const std::size_t fieldCount = splitFields(line, fields);
        if (fieldCount != columns)
            throw SnapshotError(file, std::to_string(fieldCount) + " fields, the header has " + std::to_string(columns),
                                where());
        const RowParser row(file, lineNumber);
        bodies.x[count] = row.parseCoordinate(fields[0], 0, count, doubles);
        bodies.y[count] = row.parseCoordinate(fields[1], 1, count, doubles);
        bodies.z[count] = row.parseCoordinate(fields[2], 2, count, doubles);
        bodies.vx[count] = row.parseCoordinate(fields[3], 3, count, doubles);
        bodies.vy[count] = row.parseCoordinate(fields[4], 4, count, doubles);
        bodies.vz[count] = row.parseCoordinate(fields[5], 5, count, doubles);
        bodies.mass[count] = row.parseFloat(fields[6], 6);
        bodies.id[count] = columns == kColumns.size() ? row.parseId(fields[7], 7) : count;
        bodies.component[count] = kDarkMatterComponent;
        bodies.colorKey[count] = componentColorKey(kDarkMatterComponent);
        checkBody(bodies, count, file, where);
        ++count;
    }
    if (count == 0)
        throw SnapshotError(file, "no bodies: the header row is not followed by any rows");
    bodies.resize(count);
    if (doubles)
        doubles->keepIn(bodies, count);
    return snapshot;
}

Snapshot readCsv(const std::filesystem::path& file) {
    const MappedFile mapped(file);
    return parseCsv(mapped.bytes(), file);
}

void writeCsv(AtomicFile& out, const Snapshot& snapshot) {
    std::vector<char> buffer(kWriteBufferBytes);
    constexpr std::string_view kHeader = "x,y,z,vx,vy,vz,m,id\n";
    char* at = buffer.data();
    if (snapshot.bodies.hasLowParts()) {
        at = std::copy(kDoublePrecisionLine.begin(), kDoublePrecisionLine.end(), at);
        *at++ = '\n';
    }
    at = std::copy(kHeader.begin(), kHeader.end(), at);
    const Bodies& bodies = snapshot.bodies;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (std::size_t(buffer.data() + buffer.size() - at) < kLongestRow) {
            out.write(buffer.data(), std::size_t(at - buffer.data()));
            at = buffer.data();
        }
        at = formatRow(at, bodies, i);
    }
    out.write(buffer.data(), std::size_t(at - buffer.data()));
}

} // namespace gravlab::io
