#pragma once
// A double held as two floats, high + low (Dekker's double-float): the split and the join that the CPU integrator,
// the CPU fp64 solver and the snapshot readers share.
//
// Design note: high is always float(value), the float every float consumer reads. The pair is also canonical:
// high == float(high + low), so a pair's sum written to a file (CSV and HDF5 store the sum as a double) splits back
// into the same bits. A plain float(value - high) for low breaks that in one rare case: rounding the remainder can
// land it on exactly half an ulp of high, and the sum is then a tie that float() may round to high's other neighbour.
// Moving low one float toward zero in that case keeps high and changes the pair's value by under 2^-48 relative.
// Likewise a remainder that underflows to zero keeps the sign of a negative one, but a sum that is exactly high
// splits to +0, so a zero low is always +0. The CUDA kernels (DeviceLeapfrogPairs.cu, DirectFp64Solver.cu) split
// without these two corrections; their rare non-canonical pairs still write and read back to the same value.
#include <cmath>

namespace gravlab {

/// The pair (high, low) with high = float(value) and |low| <= ulp(high) / 2: value to about 48 bits.
struct FloatPair {
    float high;
    float low;
};

/// high + low as a double; a zero low part adds nothing, so a pair (-0, 0) joins to -0 (the sum would be +0), and a
/// negative zero written to a file reads back as one.
inline double joinPair(float high, float low) {
    return low == 0.0f ? double(high) : double(high) + double(low);
}

inline FloatPair splitDouble(double value) {
    const auto high = float(value);
    auto low = float(value - double(high));
    if (float(joinPair(high, low)) != high)
        low = std::nextafter(low, 0.0f);
    return {high, low == 0.0f ? 0.0f : low};
}

} // namespace gravlab
