// Conversion between single and double precision and the double view of one body (Precision.hpp).
//
// Design note: converting to double adds zero low parts, since every float is exactly the pair (float, 0); converting
// back drops them, rounding each coordinate to the float it already stores as its high part. The per-body accessors
// keep the "low parts present or not" test in one place for code that reads or writes single bodies in double
// (diagnostics, file readers, tests).
#include <gravlab/sim/Precision.hpp>

namespace gravlab {
namespace {

std::array<double, 3> joined(const Bodies& bodies, std::size_t i, const std::vector<float>* high[3],
                             const std::vector<float>* low[3]) {
    std::array<double, 3> value{};
    for (int k = 0; k < 3; ++k)
        value[k] = bodies.hasLowParts() ? joinPair((*high[k])[i], (*low[k])[i]) : double((*high[k])[i]);
    return value;
}

void stored(Bodies& bodies, std::size_t i, const std::array<double, 3>& value, std::vector<float>* high[3],
            std::vector<float>* low[3]) {
    const bool pairs = bodies.hasLowParts();
    for (int k = 0; k < 3; ++k) {
        const FloatPair pair = splitDouble(value[k]);
        (*high[k])[i] = pairs ? pair.high : float(value[k]);
        if (pairs)
            (*low[k])[i] = pair.low;
    }
}

} // namespace

void convertPrecision(Bodies& bodies, Precision precision) {
    if (precisionOf(bodies) == precision || bodies.size() == 0)
        return;
    for (std::vector<float>* low : lowPartArrays(bodies)) {
        if (precision == Precision::Double)
            low->assign(bodies.size(), 0.0f);
        else
            *low = std::vector<float>(); // frees the memory, unlike clear()
    }
}

std::array<double, 3> positionFp64(const Bodies& bodies, std::size_t i) {
    const std::vector<float>* high[3] = {&bodies.x, &bodies.y, &bodies.z};
    const std::vector<float>* low[3] = {&bodies.xLow, &bodies.yLow, &bodies.zLow};
    return joined(bodies, i, high, low);
}

std::array<double, 3> velocityFp64(const Bodies& bodies, std::size_t i) {
    const std::vector<float>* high[3] = {&bodies.vx, &bodies.vy, &bodies.vz};
    const std::vector<float>* low[3] = {&bodies.vxLow, &bodies.vyLow, &bodies.vzLow};
    return joined(bodies, i, high, low);
}

void storePositionFp64(Bodies& bodies, std::size_t i, const std::array<double, 3>& position) {
    std::vector<float>* high[3] = {&bodies.x, &bodies.y, &bodies.z};
    std::vector<float>* low[3] = {&bodies.xLow, &bodies.yLow, &bodies.zLow};
    stored(bodies, i, position, high, low);
}

void storeVelocityFp64(Bodies& bodies, std::size_t i, const std::array<double, 3>& velocity) {
    std::vector<float>* high[3] = {&bodies.vx, &bodies.vy, &bodies.vz};
    std::vector<float>* low[3] = {&bodies.vxLow, &bodies.vyLow, &bodies.vzLow};
    stored(bodies, i, velocity, high, low);
}

} // namespace gravlab
