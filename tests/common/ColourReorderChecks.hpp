#pragma once
// Whether a reused colour map follows its bodies through a permutation, shared by the CPU and GPU tests: the same
// bodies written in reverse order must carry the colours they had, each its own.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

namespace gravlab::test {

/// Colour by colour, `after` (the bodies reversed) holds every body's colour from `before`, and the colours tell the
/// two orders apart: more than half the bodies differ in colour from their mirror, so a map left in place would fail.
inline void expectColoursFollowTheReversal(const std::vector<RenderVertex>& before,
                                           const std::vector<RenderVertex>& after) {
    ASSERT_EQ(after.size(), before.size());
    const std::size_t count = before.size();
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(after[count - 1 - i].colorScalar, before[i].colorScalar) << "body " << i;
        distinct += before[i].colorScalar != before[count - 1 - i].colorScalar ? 1 : 0;
    }
    EXPECT_GT(distinct, count / 2) << "the colours must tell the orders apart";
}

} // namespace gravlab::test
