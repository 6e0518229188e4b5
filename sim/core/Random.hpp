#pragma once
// Deterministic, splittable random numbers for scenario generation.
//
// Design note: a RandomStream is the SplitMix64 generator (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
// number generators"): a 64-bit counter advanced by the golden-ratio increment and passed through a bijective
// mixing function. A stream is identified by (seed, stream index); its starting counter is a hash of both, so
// neighbouring indices give unrelated sequences. Scenarios give every body its own stream, so body i's sample depends
// only on (seed, i): generation can run in parallel and the result depends neither on the thread count nor on the
// standard library's distributions (which differ between implementations). Uniform numbers use the top 53 bits;
// normal numbers use the Box-Muller transform.
#include <cmath>
#include <cstdint>
#include <numbers>

namespace gravlab {

/// SplitMix64's finaliser: a bijection of 64-bit integers with good avalanche.
constexpr std::uint64_t mix64(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
    return value ^ (value >> 31);
}

/// A seed for an independent sub-generator (one per scenario component), derived from a user seed and a tag.
constexpr std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t tag) {
    return mix64(seed ^ mix64(tag + 1));
}

class RandomStream {
public:
    RandomStream(std::uint64_t seed, std::uint64_t streamIndex) : m_counter(mix64(mix64(seed) + streamIndex)) {}

    std::uint64_t nextBits() {
        m_counter += kIncrement;
        return mix64(m_counter);
    }
    /// Uniform in [0, 1).
    double uniform() { return double(nextBits() >> 11) * 0x1.0p-53; }
    /// Uniform in (0, 1): safe to take the logarithm of.
    double uniformOpen() { return (double(nextBits() >> 11) + 0.5) * 0x1.0p-53; }
    /// Uniform in [low, high).
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    /// Standard normal (mean 0, variance 1).
    double normal() {
        const double radius = std::sqrt(-2.0 * std::log(uniformOpen()));
        return radius * std::cos(2.0 * std::numbers::pi * uniform());
    }

private:
    static constexpr std::uint64_t kIncrement = 0x9E3779B97F4A7C15ull;
    std::uint64_t m_counter;
};

} // namespace gravlab
