#pragma once
// The Compare panel: start a second run of the current state with another solver, opening angle or time step beside the
// main run, watch how far they drift apart, stop it, export its history.
//
// Design note: display and edit only, like the other panels: it shows a ComparePanelView (the divergence history,
// the runs' labels, the last outcome) and returns ComparePanelRequests; the viewer makes, restarts and stops the
// comparison (ComparisonView) and writes the CSV. The plot draws log10 of the rms position difference and of each
// run's energy error (ImGui::PlotLines; Debian's ImGui 1.86 has no implot), over the samples kept: the differences
// grow by orders of magnitude (chaos amplifies a force error exponentially), so a linear axis would show a flat line
// and a spike. An energy error not measured at a sample repeats the last measured one, so its curve has no gaps; a
// zero (identical runs) is drawn at the floor kLogFloor.
#include "../session/Comparison.hpp"
#include "../session/DivergenceHistory.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gravlab {

/// The lowest log10 the plot shows: fp32 rounding of positions of order 1 sits around 1e-7, so 1e-16 is zero.
inline constexpr float kLogFloor = -16.0f;

struct ComparePanelView {
    std::string mainLabel;                      ///< "direct" or "tree, theta 0.5": the main run (left half)
    std::optional<std::string> runLabel;        ///< the comparison run (right half); none: no comparison
    std::optional<ComparisonChoice> running;    ///< what the comparison run does differently; seeds the controls
    const DivergenceHistory* history = nullptr; ///< the comparison's samples; null without a comparison
    double halfMassRadius = 0;                  ///< of the state the comparison started from
    int restarts = 0;                           ///< restarts because the main run went back or changed
    std::string_view failure;                   ///< why the comparison stopped stepping; empty while it runs
    double mainOpeningAngle = 0.5;              ///< the theta slider starts here
    bool onCudaBackend = false;                 ///< which solvers run (the combo disables the others)
    std::string_view message;                   ///< the last start's refusal or export's outcome
    bool messageIsError = false;
};

struct ComparePanelRequests {
    std::optional<ComparisonChoice> start; ///< start (or replace) the comparison with this choice
    bool stop = false;
    bool restart = false;                           ///< again from the main run's current state
    bool measureEnergy = false;                     ///< both energies at the next sample, however long they take
    std::optional<std::filesystem::path> exportCsv; ///< write the history here
};

class ComparePanel {
public:
    explicit ComparePanel(std::filesystem::path csvFile);
    ComparePanelRequests draw(const ComparePanelView& view);

private:
    void drawChoice(const ComparePanelView& view, ComparePanelRequests& requests);
    void drawExport(ComparePanelRequests& requests);

    std::optional<SimParams> m_choice; ///< solver and theta being chosen; set on the first draw
    int m_substeps = 1;                ///< comparison steps per main step being chosen
    std::string m_csvFile;
};

/// The two halves' labels ("main: direct", "compare: tree, theta 0.7") at the top of each half of the window.
void drawHalfLabels(const std::string& mainLabel, const std::string& runLabel);

} // namespace gravlab
