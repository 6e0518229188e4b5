// Unit systems: G and the time unit from the three base scales against values worked out by hand, and the names
// people read.
#include <gravlab/sim/Units.hpp>

#include <gtest/gtest.h>
#include <limits>

namespace gravlab {
namespace {

TEST(Units, NbodyUnitsHaveGOneAndNoPhysicalScale) {
    const UnitSystem units = nbodyUnits();
    EXPECT_FALSE(units.physical());
    EXPECT_EQ(units.gravitationalConstant(), 1.0);
    EXPECT_EQ(units.summary(), "N-body units (G = 1)");
}

TEST(Units, GadgetUnitsGiveTheTextbookG) {
    // GADGET's parameter files: 3.085678e21 cm, 1.989e43 g, 1e5 cm/s. By hand: G = 6.6743e-8 * 1.989e43 /
    // (3.085678e21 * 1e10) = 43021.9; with the IAU parsec and 1.98841e33 g solar mass it is 43009.2.
    const UnitSystem file = unitSystemFromCgs(3.085678e21, 1.989e43, 1e5);
    EXPECT_NEAR(file.gravitationalConstant(), 43021.9, 0.1);
    EXPECT_NEAR(gadgetDefaultUnits().gravitationalConstant(), 43009.2, 0.1);
    // kpc / (km/s) = 3.085678e16 s = 0.9778 Gyr.
    EXPECT_NEAR(file.timeInSeconds() / (1e9 * kYearInSeconds), 0.9778, 1e-4);
    EXPECT_EQ(file.lengthName, "kpc");
    EXPECT_EQ(file.massName, "1e10 Msun");
    EXPECT_EQ(file.velocityName, "km/s");
    EXPECT_EQ(file.timeName(), "977.8 Myr");
}

TEST(Units, NamesPickTheNearestScaleAndKeepOddFactors) {
    const UnitSystem parsecs = unitSystemFromCgs(kParsecInCm, kSolarMassInGrams, 1e5);
    EXPECT_EQ(parsecs.lengthName, "pc");
    EXPECT_EQ(parsecs.massName, "Msun");
    EXPECT_NEAR(parsecs.gravitationalConstant(), 4.3009e-3, 1e-6);
    const UnitSystem odd = unitSystemFromCgs(2.5e6 * kParsecInCm, 3.0e12 * kSolarMassInGrams, 2e7);
    EXPECT_EQ(odd.lengthName, "2.5 Mpc");
    EXPECT_EQ(odd.massName, "3e+12 Msun");
    EXPECT_EQ(odd.velocityName, "200 km/s");
}

TEST(Units, ScalesThatAreNotPositiveFiniteNumbersMeanNbodyUnits) {
    EXPECT_FALSE(unitSystemFromCgs(0, 1, 1).physical());
    EXPECT_FALSE(unitSystemFromCgs(1, -1, 1).physical());
    EXPECT_FALSE(unitSystemFromCgs(1, 1, std::numeric_limits<double>::infinity()).physical());
}

} // namespace
} // namespace gravlab
