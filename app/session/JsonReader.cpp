// Field-by-field reading of JSON objects with refusals naming the key path (see JsonReader.hpp).
#include "JsonReader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace gravlab {
namespace {

/// Bounds print with up to 10 significant digits, so whole bounds such as body counts print exactly.
std::string formatBound(double value) {
    std::ostringstream text;
    text.precision(10);
    text << value;
    return text.str();
}

/// "allowed 0 < timeStep <= 1 (time step in N-body time units)", the key standing for the range's name.
std::string describeAllowed(std::string_view key, const ParamRange& range) {
    return "allowed " + formatBound(range.min) + (range.minInclusive ? " <= " : " < ") + std::string(key) +
           " <= " + formatBound(range.max) + " (" + std::string(range.meaning) + ")";
}

/// Whole floats are exact in a double up to here.
constexpr double kLargestExactWholeFloat = 9007199254740992.0; // 2^53

} // namespace

std::string joinKeyPath(std::string_view path, std::string_view key) {
    return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
}

std::string describeJsonValue(const Json& value) {
    switch (value.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return "an array";
    case Json::value_t::string:
        return "the string " + value.dump();
    case Json::value_t::null:
        return "null";
    default: // numbers and booleans read best as written
        return value.dump();
    }
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string path) : m_object(object), m_path(std::move(path)) {
    if (!m_object.is_object())
        throw JsonFieldError(m_path.empty() ? "(top level)" : m_path,
                             "expected an object {...}, found " + describeJsonValue(m_object));
}

const Json* JsonObjectReader::find(std::string_view key) {
    m_knownKeys.emplace_back(key);
    const auto found = m_object.find(key);
    return found == m_object.end() ? nullptr : &*found;
}

bool JsonObjectReader::read(std::string_view key, bool& target) {
    const Json* value = find(key);
    if (value == nullptr)
        return false;
    if (!value->is_boolean())
        fail(key, "expected true or false, found " + describeJsonValue(*value));
    target = value->get<bool>();
    return true;
}

bool JsonObjectReader::read(std::string_view key, std::string& target) {
    const Json* value = find(key);
    if (value != nullptr)
        target = stringValue(key, *value);
    return value != nullptr;
}

bool JsonObjectReader::read(std::string_view key, double& target, const ParamRange& range) {
    const Json* value = find(key);
    if (value != nullptr)
        target = numberValue(key, *value, range);
    return value != nullptr;
}

bool JsonObjectReader::readWhole(std::string_view key, std::uint64_t& target) {
    const Json* value = find(key);
    if (value == nullptr)
        return false;
    if (value->is_number_unsigned()) {
        target = value->get<std::uint64_t>();
        return true;
    }
    if (value->is_number_float()) {
        const double number = value->get<double>();
        if (number >= 0 && number == std::floor(number) && number <= kLargestExactWholeFloat) {
            target = static_cast<std::uint64_t>(number);
            return true;
        }
    }
    const std::string allowed = "a whole number from 0 to " + std::to_string(std::numeric_limits<std::uint64_t>::max());
    if (value->is_number())
        fail(key, value->dump() + " is not " + allowed);
    fail(key, "expected " + allowed + ", found " + describeJsonValue(*value));
}

std::string JsonObjectReader::stringValue(std::string_view key, const Json& value) const {
    if (!value.is_string())
        fail(key, "expected a string \"...\", found " + describeJsonValue(value));
    return value.get<std::string>();
}

double JsonObjectReader::numberValue(std::string_view key, const Json& value, const ParamRange& range) const {
    if (!value.is_number())
        fail(key, "expected a number, found " + describeJsonValue(value) + ": " + describeAllowed(key, range));
    const double number = value.get<double>();
    const bool aboveMin = range.minInclusive ? number >= range.min : number > range.min;
    if (!aboveMin || number > range.max)
        fail(key, value.dump() + " is out of range: " + describeAllowed(key, range));
    return number;
}

double JsonObjectReader::wholeNumber(std::string_view key, const Json& value, const ParamRange& range) const {
    const double number = numberValue(key, value, range);
    if (value.is_number_float() && number != std::floor(number))
        fail(key, value.dump() + " is not a whole number: " + describeAllowed(key, range));
    return number;
}

void JsonObjectReader::finish() const {
    for (const auto& [key, value] : m_object.items()) {
        if (std::find(m_knownKeys.begin(), m_knownKeys.end(), key) != m_knownKeys.end())
            continue;
        std::string allowed;
        for (std::size_t i = 0; i < m_knownKeys.size(); ++i)
            allowed += (i == 0 ? "" : i + 1 == m_knownKeys.size() ? " or " : ", ") + m_knownKeys[i];
        fail(key, "is not a known key here: allowed " + allowed);
    }
}

void JsonObjectReader::fail(std::string_view key, const std::string& problem) const {
    throw JsonFieldError(joinKeyPath(m_path, key), problem);
}

} // namespace gravlab
