# Shared by the script-mode checks of runs under mpirun (ExpectMpiFrames.cmake, ExpectMpiSnapshots.cmake).

# run_checked(DESCRIPTION COMMAND...): runs the command for at most 120 s; a failure stops the check naming DESCRIPTION
# with its output. Sets out and err in the caller.
function(run_checked description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE error TIMEOUT 120)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${description} failed (${status})\nstdout: ${output}\nstderr: ${error}")
  endif()
  set(out "${output}" PARENT_SCOPE)
  set(err "${error}" PARENT_SCOPE)
endfunction()

# expect_once(REGEX TEXT WHAT): TEXT holds exactly one match of REGEX (rank 0's line, no other rank's).
function(expect_once regex text what)
  string(REGEX MATCHALL "${regex}" matches "${text}")
  list(LENGTH matches count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one ${what} (rank 0's), found ${count}\n${text}")
  endif()
endfunction()
