#pragma once
// Names of enum values as users type and read them: one table per enum, one way to print, parse and list them.
//
// Design note: an enum that the command line, a panel or a message names specialises EnumNames<Enum> next to its
// declaration, with the field it belongs to (as the command line spells it) and one entry per value:
//   template <> struct EnumNames<OrbBalance> {
//       static constexpr std::string_view field = "orb-balance";
//       static constexpr std::array entries{EnumName<OrbBalance>{OrbBalance::Count, "count"}, ...};
//   };
// enumName, parseEnumName and checkEnumValue work from that table alone, and panels list the values from it, so a new
// value is one line. A failed parse or check throws InvalidParameterError (SimParams.hpp) with a sentence that names
// the field, the value and every allowed name, each followed by its description where it has one:
//   "orb-balance = 'memory' is not known: allowed 'count' or 'work'"
//   "color = 'red' is not known: allowed 'component' (the scenario's colours), ... or 'orb-domain' (...)"
#include <cstddef>
#include <string>
#include <string_view>

namespace gravlab {

/// One value of an enum as users see it.
template <typename Enum> struct EnumName {
    Enum value;
    std::string_view name;          ///< as the command line spells it, e.g. "leaf-depth"
    std::string_view description{}; ///< shown after the name where the allowed names are listed; may be empty
};

/// Specialised once per named enum, next to the enum (see the design note); entries are in display order.
template <typename Enum> struct EnumNames;

/// "'a', 'b' or 'c'": each name quoted and followed by " (description)" where its entry has a non-empty one.
template <typename Entries> std::string listNames(const Entries& entries) {
    std::string list;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0)
            list += i + 1 == entries.size() ? " or " : ", ";
        list.append("'").append(entries[i].name).append("'");
        if constexpr (requires { entries[i].description; })
            if (!entries[i].description.empty())
                list.append(" (").append(entries[i].description).append(")");
    }
    return list;
}

/// Throws InvalidParameterError(field, "<field> = '<value>' is not known: allowed <allowed>").
[[noreturn]] void throwUnknownName(std::string_view field, std::string_view value, const std::string& allowed);

/// The value's name, or "unknown" for a value outside the table.
template <typename Enum> std::string_view enumName(Enum value) {
    for (const auto& entry : EnumNames<Enum>::entries)
        if (entry.value == value)
            return entry.name;
    return "unknown";
}

/// The value named name; throws InvalidParameterError (field EnumNames<Enum>::field) listing the allowed names.
template <typename Enum> Enum parseEnumName(std::string_view name) {
    for (const auto& entry : EnumNames<Enum>::entries)
        if (entry.name == name)
            return entry.value;
    throwUnknownName(EnumNames<Enum>::field, name, listNames(EnumNames<Enum>::entries));
}

/// Throws InvalidParameterError, naming the value as a number, when value is none of the table's (a value cast from
/// an integer that no enumerator has).
template <typename Enum> void checkEnumValue(Enum value) {
    for (const auto& entry : EnumNames<Enum>::entries)
        if (entry.value == value)
            return;
    throwUnknownName(EnumNames<Enum>::field, std::to_string(static_cast<long long>(value)),
                     listNames(EnumNames<Enum>::entries));
}

} // namespace gravlab
