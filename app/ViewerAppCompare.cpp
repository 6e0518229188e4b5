// ViewerApp's compare mode: starting, following and stopping the comparison run beside the main one, its panel and its
// CSV export (see ViewerApp.hpp's and ComparisonView.hpp's design notes); kept apart from the window loop's file so
// that the loop stays about the frame.
#include "ViewerApp.hpp"
#include "session/DivergenceCsv.hpp"

#include <iostream>

namespace gravlab {

namespace {

/// How often the window's comparison samples: every frame for up to 2^18 bodies; beyond that every 8th frame, since
/// a sample reads both runs' bodies back to the host (from the GPU, two full copies) and walks them once.
ComparisonCadence windowComparisonCadence(std::size_t bodyCount) {
    ComparisonCadence cadence;
    cadence.sampleEveryFrames = bodyCount <= (std::size_t{1} << 18) ? 1 : 8;
    return cadence;
}

} // namespace

void ViewerApp::beginComparison(const ComparisonChoice& choice) {
    m_comparison.emplace(m_session.simulation(), choice, windowComparisonCadence(m_session.simulation().bodyCount()),
                         m_session.colorMode(), std::cerr);
}

void ViewerApp::startComparison(const ComparisonChoice& choice) {
    try {
        m_comparison.reset(); // its memory is free for the new one
        beginComparison(choice);
        m_compareMessage.clear();
    } catch (const std::exception& error) { // a solver that does not run here, or no memory for a second run
        m_comparison.reset();
        m_compareMessage = error.what();
        m_compareMessageIsError = true;
    }
}

void ViewerApp::followComparison() {
    if (!m_comparison)
        return;
    try {
        m_comparison->follow(m_session.simulation(), m_session.colorMode());
    } catch (const std::exception& error) { // a restart that no longer fits in memory: the main run goes on alone
        m_comparison.reset();
        m_compareMessage = std::string("comparison stopped: ") + error.what();
        m_compareMessageIsError = true;
        refitCamera(); // the main run fills the window again
    }
}

ComparePanelRequests ViewerApp::drawComparePanel() {
    const Simulation& simulation = m_session.simulation();
    ComparePanelView view;
    view.mainLabel = runLabel(simulation.params());
    view.mainOpeningAngle = simulation.params().openingAngle;
    view.onCudaBackend = m_session.onCudaBackend();
    view.message = m_compareMessage;
    view.messageIsError = m_compareMessageIsError;
    if (m_comparison) {
        const Comparison& comparison = m_comparison->comparison();
        view.runLabel = runLabel(comparison.run().params());
        view.running = comparison.choice();
        view.history = &comparison.history();
        view.halfMassRadius = comparison.halfMassRadius();
        view.restarts = comparison.restarts();
        view.failure = comparison.failure();
        drawHalfLabels(view.mainLabel, *view.runLabel);
    }
    return m_comparePanel.draw(view);
}

void ViewerApp::applyCompareRequests(const ComparePanelRequests& requests) {
    const bool wasComparing = m_comparison.has_value();
    if (requests.start)
        startComparison(*requests.start);
    if (requests.stop)
        m_comparison.reset();
    if (requests.restart && m_comparison)
        m_comparison->restart(m_session.simulation());
    if (requests.measureEnergy && m_comparison)
        m_comparison->comparison().measureEnergyAtNextSample();
    if (requests.exportCsv && m_comparison)
        writeComparisonCsv(*requests.exportCsv);
    if (wasComparing != m_comparison.has_value())
        refitCamera(); // the main run's picture changed its aspect
}

void ViewerApp::writeComparisonCsv(const std::filesystem::path& file) {
    try {
        writeDivergenceCsv(file, m_comparison->comparison().history());
        m_compareMessage =
            "wrote " + std::to_string(m_comparison->comparison().history().size()) + " samples to " + file.string();
        m_compareMessageIsError = false;
    } catch (const std::exception& error) { // FileWriteError: names the file and the reason
        m_compareMessage = error.what();
        m_compareMessageIsError = true;
    }
}

void ViewerApp::writeComparisonCsvOnClose() {
    if (m_comparison && m_compareCsvOnClose)
        writeDivergenceCsv(*m_compareCsvOnClose, m_comparison->comparison().history());
}

} // namespace gravlab
