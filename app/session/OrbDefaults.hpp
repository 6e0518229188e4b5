#pragma once
// How many ORB domains the app asks for when the user wants to see domains but named no count.
//
// Design note: asking to see ORB domains (--color orb-domain, --orb-cells, the panel's colour combo or "show cells")
// while ORB is off switches it on with defaultOrbDomainCount(N) domains: one rule for the command line, the panels
// and the session controller. It lives apart from the view settings so that the GL-free session code can use it.
#include <algorithm>
#include <cstdint>

namespace gravlab {

/// Domains ORB gets when it is switched on without a count: enough to show structure at a glance (six levels of
/// cuts), few enough that every box stays visible; capped at the body count, which ORB cannot exceed.
inline constexpr std::uint32_t kDefaultOrbDomainCount = 64;

inline std::uint32_t defaultOrbDomainCount(std::uint64_t bodyCount) {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(kDefaultOrbDomainCount, bodyCount));
}

} // namespace gravlab
