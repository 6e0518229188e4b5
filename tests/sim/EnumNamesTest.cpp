// The enum name tables (EnumNames.hpp): every entry round-trips through its name, unknown names and values are
// refused with the sentence the command line prints, naming the field and every allowed name.
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <gtest/gtest.h>

namespace gravlab {
namespace {

/// what() of the InvalidParameterError that parse throws, after checking its field.
template <typename Enum> std::string parseFailure(std::string_view name) {
    try {
        parseEnumName<Enum>(name);
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), EnumNames<Enum>::field);
        return error.what();
    }
    ADD_FAILURE() << "'" << name << "' was accepted";
    return {};
}

template <typename Enum> void expectRoundTrips() {
    for (const EnumName<Enum>& entry : EnumNames<Enum>::entries) {
        EXPECT_EQ(enumName(entry.value), entry.name);
        EXPECT_EQ(parseEnumName<Enum>(entry.name), entry.value);
        EXPECT_NO_THROW(checkEnumValue(entry.value));
    }
}

TEST(EnumNames, EveryEntryRoundTrips) {
    expectRoundTrips<BackendKind>();
    expectRoundTrips<OrbBalance>();
    expectRoundTrips<ColorMode>();
    expectRoundTrips<ColorScaleChoice>();
}

TEST(EnumNames, UnknownNamesListTheAllowedOnesWithTheirDescriptions) {
    EXPECT_EQ(parseFailure<BackendKind>("gpu"), "backend = 'gpu' is not known: allowed 'auto', 'cuda', 'cpu' or 'gl'");
    EXPECT_EQ(parseFailure<OrbBalance>("memory"), "orb-balance = 'memory' is not known: allowed 'count' or 'work'");
    EXPECT_EQ(parseFailure<ColorScaleChoice>("Log"),
              "color-scale = 'Log' is not known: allowed 'auto' (log for density, |a| and error, else linear), "
              "'linear' (linear colour scale) or 'log' (logarithmic colour scale)");
}

TEST(EnumNames, ValuesOutsideTheTableAreNamedAsNumbers) {
    const auto stray = static_cast<BackendKind>(7);
    EXPECT_EQ(enumName(stray), "unknown");
    try {
        checkEnumValue(stray);
        ADD_FAILURE() << "backend 7 was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "backend");
        EXPECT_STREQ(error.what(), "backend = '7' is not known: allowed 'auto', 'cuda', 'cpu' or 'gl'");
    }
}

} // namespace
} // namespace gravlab
