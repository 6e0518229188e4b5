# Script mode: a headless run of EXE under MPIEXEC on RANKS ranks that saves CSV snapshots and the plots' CSV while it
# runs: rank 0 alone writes them, into SNAP_DIR and PLOTS (the other ranks read the same states with it and write
# nothing), and they hold what the same run in one process writes (ONE_SNAP_DIR, ONE_PLOTS): the same files, the
# initial snapshot's rows byte for byte (in rank order, so compared sorted), every later snapshot with the same bodies
# (positions differ in the last digits: the ranks sum forces in another order), the plots with the same samples.
# ARGS: the run's options besides --save-dir, --plots-csv and --out.
include(${CMAKE_CURRENT_LIST_DIR}/MpiRunChecks.cmake)
file(REMOVE_RECURSE ${SNAP_DIR} ${ONE_SNAP_DIR} ${OUT_DIR} ${ONE_OUT_DIR} ${PLOTS} ${ONE_PLOTS})
run_checked("the one-process run" ${EXE} ${ARGS} --save-dir ${ONE_SNAP_DIR} --plots-csv ${ONE_PLOTS} --out ${ONE_OUT_DIR})
run_checked("the run on ${RANKS} ranks" ${MPIEXEC} --oversubscribe -np ${RANKS} ${EXE} ${ARGS} --save-dir ${SNAP_DIR}
            --plots-csv ${PLOTS} --out ${OUT_DIR})
expect_once("gravlab: wrote [0-9]+ snapshots" "${out}${err}" "snapshot summary")

file(GLOB written RELATIVE ${SNAP_DIR} ${SNAP_DIR}/*)
file(GLOB expected RELATIVE ${ONE_SNAP_DIR} ${ONE_SNAP_DIR}/*)
list(SORT written)
list(SORT expected)
list(LENGTH expected expectedCount)
if(expectedCount LESS 2 OR NOT "${written}" STREQUAL "${expected}")
  message(FATAL_ERROR "${SNAP_DIR} holds '${written}', the one-process run wrote '${expected}'")
endif()
list(GET expected 0 initial)
foreach(snapshot IN LISTS expected)
  file(STRINGS ${SNAP_DIR}/${snapshot} rankRows)
  file(STRINGS ${ONE_SNAP_DIR}/${snapshot} oneRows)
  list(SORT rankRows)
  list(SORT oneRows)
  if(snapshot STREQUAL initial)
    if(NOT "${rankRows}" STREQUAL "${oneRows}")
      message(FATAL_ERROR "${snapshot}: the initial state differs from the one-process run's")
    endif()
  endif()
  # The last column is the id: the same bodies, each once.
  list(TRANSFORM rankRows REPLACE "^.*," "")
  list(TRANSFORM oneRows REPLACE "^.*," "")
  list(SORT rankRows COMPARE NATURAL)
  list(SORT oneRows COMPARE NATURAL)
  if(NOT "${rankRows}" STREQUAL "${oneRows}")
    message(FATAL_ERROR "${snapshot}: the ids differ from the one-process run's")
  endif()
endforeach()

# The plots: the same samples (time and step columns) as the one-process run.
file(STRINGS ${PLOTS} rankPlots)
file(STRINGS ${ONE_PLOTS} onePlots)
list(TRANSFORM rankPlots REPLACE "^([^,]*,[^,]*),.*$" "\\1")
list(TRANSFORM onePlots REPLACE "^([^,]*,[^,]*),.*$" "\\1")
list(LENGTH onePlots plotRows)
if(plotRows LESS 2 OR NOT "${rankPlots}" STREQUAL "${onePlots}")
  message(FATAL_ERROR "${PLOTS} samples '${rankPlots}', the one-process run '${onePlots}'")
endif()
message(STATUS "${RANKS} ranks: rank 0 wrote ${expected} and ${plotRows} plot rows, as one process does")
