#pragma once
// How hierarchical time steps choose each body's level (the arithmetic is sim/core/TimeStepLevels.hpp's), in a header
// of its own so that the host-and-device level functions can name it without the rest of SimParams.
#include <gravlab/sim/EnumNames.hpp>

#include <array>
#include <string_view>

namespace gravlab {

/// Which time scale a body's step must fit, and where it is read.
enum class LevelChoice {
    Start,     ///< eta sqrt(eps / |a|) at the step's start (GADGET's choice)
    Symmetric, ///< eta sqrt(eps / |a|) averaged over the step's two ends, the end's extrapolated: time-symmetric
    Tidal,     ///< a fraction eta of the local dynamical time, from how the acceleration changed over the last step
};

/// Whether the choice reads each body's acceleration before its last evaluation (its history), which the steppers
/// then keep.
constexpr bool remembersAccelerations(LevelChoice choice) {
    return choice != LevelChoice::Start;
}

template <> struct EnumNames<LevelChoice> {
    static constexpr std::string_view field = "level-choice";
    static constexpr std::array entries{
        EnumName<LevelChoice>{LevelChoice::Start, "start", "the criterion at the start of each step"},
        EnumName<LevelChoice>{LevelChoice::Symmetric, "symmetric", "the criterion averaged over each step's two ends"},
        EnumName<LevelChoice>{LevelChoice::Tidal, "tidal",
                              "eta times the dynamical time that the change of the acceleration over the last step "
                              "shows"}};
};

} // namespace gravlab
