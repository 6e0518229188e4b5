#pragma once
// A guard that forces Highway's dispatch onto one SIMD target while it lives, so a test can check every target this
// machine supports; it restores Highway's own choice when the test ends, however it ends.
#include <cstdint>
#include <hwy/targets.h>

namespace gravlab::simtest {

class ForcedSimdTarget {
public:
    explicit ForcedSimdTarget(std::int64_t target) { hwy::SetSupportedTargetsForTest(target); }
    ~ForcedSimdTarget() { hwy::SetSupportedTargetsForTest(0); }
    ForcedSimdTarget(const ForcedSimdTarget&) = delete;
    ForcedSimdTarget& operator=(const ForcedSimdTarget&) = delete;
};

} // namespace gravlab::simtest
