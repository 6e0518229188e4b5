#pragma once
// The JSON that `gravlab bench --json` and `gravlab accuracy --json` print: one object on one line, built with
// nlohmann::json instead of by hand, so every string is escaped and every value is valid JSON.
//
// Design note: keys keep the order they are added (ordered_json), as before. Measured numbers go through
// reportedNumber(), which keeps the 6 significant digits these reports have always printed (run-to-run noise is far
// above that) and turns a non-finite value, which JSON cannot hold, into null. Counts stay exact integers.
// scripts/gpu_check.sh and scripts/compare_speed.sh read single keys from these lines.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

namespace gravlab {

using ReportJson = nlohmann::ordered_json;

/// value rounded to 6 significant digits; null when it is NaN or infinite.
ReportJson reportedNumber(double value);

/// report on one line, followed by a newline.
void printReport(const ReportJson& report, std::ostream& out);

/// Today's date in UTC, YYYY-MM-DD: the date every report states.
std::string todayUtc();

} // namespace gravlab
