# Script mode: fails when a file of the session controller (DIR) includes a GL, GLES, EGL, GLFW, glad or ImGui header
# or one of render/'s. The controller must stay drivable without a GL context (tests/app, headless logic); its target
# already lacks render's and glad's include paths (app/CMakeLists.txt), but the system's GL, GLFW and ImGui headers
# are on every include path, so this check names them.
file(GLOB sources ${DIR}/*.hpp ${DIR}/*.cpp)
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no session sources under '${DIR}'")
endif()
set(forbidden "")
foreach(source IN LISTS sources)
  file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "[<\"/](GL|GLES[0-9]*|EGL|GLFW|glad|imgui|render)/" OR line MATCHES "[<\"/]imgui[^/]*\\.h")
      string(APPEND forbidden "\n  ${source}: ${line}")
    endif()
  endforeach()
endforeach()
if(forbidden)
  message(FATAL_ERROR "the session controller must stay GL-free, but includes:${forbidden}")
endif()
message(STATUS "${count} session files include no GL, GLFW, EGL or ImGui header")
