// The error of a name that no table entry has (EnumNames.hpp).
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/SimParams.hpp>

namespace gravlab {

void throwUnknownName(std::string_view field, std::string_view value, const std::string& allowed) {
    throw InvalidParameterError(std::string(field), std::string(field) + " = '" + std::string(value) +
                                                        "' is not known: allowed " + allowed);
}

} // namespace gravlab
