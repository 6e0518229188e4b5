#pragma once
// Reading a JSON object field by field, with refusals that name the key path: the reader under session files.
//
// Design note: a hand-written file is read by asking for the expected fields one by one. Each read names its key,
// takes the value when the key is there and leaves the caller's value (the default) when it is not, and checks the
// value's type and its range (a ParamRange), or its name (an EnumNames table). Every key a read asks for is
// remembered, so finish() can refuse any other key: a typo ("softenningLength") is an error naming it, not a value
// silently ignored. A refusal is a JsonFieldError with the key path ("params.orb.domainCount") and one sentence
// saying what was found and what is allowed; whoever knows the file's name puts it in front (SessionFile.cpp).
// Whole numbers may be written as integers or as whole floats up to 2^53 ("bodyCount": 1e6), since JSON itself does
// not tell them apart.
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

/// Objects keep their keys in the order written, so saved files read in the order of the structs.
using Json = nlohmann::ordered_json;

/// A value that is not what its key allows; what() is the sentence without the key path.
class JsonFieldError : public std::runtime_error {
public:
    JsonFieldError(std::string keyPath, const std::string& problem)
        : std::runtime_error(problem), m_keyPath(std::move(keyPath)) {}
    const std::string& keyPath() const { return m_keyPath; }

private:
    std::string m_keyPath;
};

/// "params" + "orb" -> "params.orb"; a path of "" gives the bare key.
std::string joinKeyPath(std::string_view path, std::string_view key);

class JsonObjectReader {
public:
    /// Reads the members of object, whose own key path is path ("" for the top level). Throws JsonFieldError when
    /// object is not a JSON object.
    JsonObjectReader(const Json& object, std::string path);

    /// The value of key, or null when the key is absent; marks the key as known. For values with their own rules.
    const Json* find(std::string_view key);

    // Each read returns whether the key was there (and target set).
    bool read(std::string_view key, bool& target);
    bool read(std::string_view key, std::string& target);
    /// Any number within range; range.meaning is quoted in the refusal, the key stands for range.name.
    bool read(std::string_view key, double& target, const ParamRange& range);
    /// A whole number within range (whose bounds are whole).
    template <std::integral Integer> bool readWhole(std::string_view key, Integer& target, const ParamRange& range) {
        const Json* value = find(key);
        if (value != nullptr)
            target = static_cast<Integer>(wholeNumber(key, *value, range));
        return value != nullptr;
    }
    /// Any whole number from 0 to 2^64 - 1 (seeds).
    bool readWhole(std::string_view key, std::uint64_t& target);
    /// A name from the enum's EnumNames table.
    template <typename Enum> bool readName(std::string_view key, Enum& target) {
        const Json* value = find(key);
        if (value != nullptr)
            target = parseName<Enum>(key, *value);
        return value != nullptr;
    }
    /// The enum value named by value (a string); throws JsonFieldError listing the names.
    template <typename Enum> Enum parseName(std::string_view key, const Json& value) const {
        const std::string name = stringValue(key, value);
        for (const auto& entry : EnumNames<Enum>::entries)
            if (entry.name == name)
                return entry.value;
        fail(key, "'" + name + "' is not known: allowed " + listNames(EnumNames<Enum>::entries));
    }
    /// Calls readFields(reader) with a reader of the object under key, then that reader's finish(); nothing when the
    /// key is absent.
    template <typename ReadFields> void readObject(std::string_view key, ReadFields&& readFields) {
        if (const Json* value = find(key)) {
            JsonObjectReader nested(*value, joinKeyPath(m_path, key));
            readFields(nested);
            nested.finish();
        }
    }

    /// Throws JsonFieldError for the first key of the object that no read asked for, naming the allowed keys.
    void finish() const;

    /// The text of a string value; throws JsonFieldError for any other type.
    std::string stringValue(std::string_view key, const Json& value) const;
    /// The number of a numeric value, checked against range; throws JsonFieldError for any other type or value.
    double numberValue(std::string_view key, const Json& value, const ParamRange& range) const;
    /// Throws JsonFieldError(path of key, problem).
    [[noreturn]] void fail(std::string_view key, const std::string& problem) const;
    const std::string& path() const { return m_path; }

private:
    double wholeNumber(std::string_view key, const Json& value, const ParamRange& range) const;

    const Json& m_object;
    std::string m_path;
    std::vector<std::string> m_knownKeys;
};

/// How a value appears in a refusal: "the string \"abc\"", "true", "an array", "-1".
std::string describeJsonValue(const Json& value);

} // namespace gravlab
