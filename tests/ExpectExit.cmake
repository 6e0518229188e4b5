# Script mode: runs EXE with ARGS, passes when the exit status is EXPECT and the output contains MATCH (and, when
# given, matches the regular expression MATCH_REGEX).
# With EXPECT_FILE, that file is removed first and must exist afterwards (a file the run is meant to write).
if(DEFINED EXPECT_FILE)
  file(REMOVE ${EXPECT_FILE})
endif()
# An unquoted ${ARGS} would drop empty elements ("-DARGS=--dt;" must pass an empty value), so each element becomes a
# bracket argument of a generated call.
set(arguments "")
foreach(argument IN LISTS ARGS)
  string(APPEND arguments " [==[${argument}]==]")
endforeach()
cmake_language(EVAL CODE "execute_process(COMMAND [==[${EXE}]==]${arguments} RESULT_VARIABLE status
                          OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)")
if(NOT status EQUAL EXPECT)
  message(FATAL_ERROR "expected exit status ${EXPECT}, got ${status}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${out}${err}" "${MATCH}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "output does not mention '${MATCH}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED MATCH_REGEX AND NOT "${out}${err}" MATCHES "${MATCH_REGEX}")
  message(FATAL_ERROR "output does not match '${MATCH_REGEX}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED EXPECT_FILE AND NOT EXISTS ${EXPECT_FILE})
  message(FATAL_ERROR "the run did not write ${EXPECT_FILE}\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "exit ${status} as expected: ${err}")
