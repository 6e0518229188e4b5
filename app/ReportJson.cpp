// One-line JSON reports with 6 significant digits (see ReportJson.hpp).
#include "ReportJson.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <ostream>

namespace gravlab {

ReportJson reportedNumber(double value) {
    if (!std::isfinite(value))
        return nullptr;
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return std::strtod(text, nullptr);
}

void printReport(const ReportJson& report, std::ostream& out) {
    // Machine and scenario names come from the system and the user: replace bytes that are not UTF-8, never throw.
    out << report.dump(-1, ' ', false, ReportJson::error_handler_t::replace) << '\n';
}

std::string todayUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
    return text;
}

} // namespace gravlab
