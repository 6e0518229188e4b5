# Script mode: runs EXE with ARGS, which must exit with status 0, then asks ffprobe (FFPROBE) for the width, height
# and decoded frame count of MOVIE's video stream, which must read EXPECT_PROBE ("1280,720,10"). MOVIE is removed
# first, so a movie left by an earlier run cannot pass.
file(REMOVE ${MOVIE})
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got ${status}\nstdout: ${out}\nstderr: ${err}")
endif()
execute_process(COMMAND ${FFPROBE} -v error -count_frames -select_streams v:0 -show_entries
                        stream=nb_read_frames,width,height -of csv=p=0 ${MOVIE}
                RESULT_VARIABLE probeStatus OUTPUT_VARIABLE probed ERROR_VARIABLE probeErr
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT probeStatus EQUAL 0 OR NOT probed STREQUAL EXPECT_PROBE)
  message(FATAL_ERROR "ffprobe on ${MOVIE} gave '${probed}' (status ${probeStatus}: ${probeErr}), expected "
                      "'${EXPECT_PROBE}'\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "ffprobe: ${probed} as expected; ${out}")
