# Turns "not found" into "install this Debian package". Every system dependency of the build is looked up through
# these helpers, so a configure step that fails on a fresh Debian 12 machine names the package that provides what is
# missing and the command that installs it. scripts/setup.sh installs all of them; keep the two lists in step.

function(gravlab_missing_debian_package what package)
  message(FATAL_ERROR "${what} was not found. It comes from the Debian package ${package}: install it with "
                      "'sudo apt-get install ${package}', or run scripts/setup.sh, which installs every package "
                      "Gravlab needs.")
endfunction()

# Before project(): without a C++ compiler and make, CMake would only say that CMAKE_CXX_COMPILER or a build program
# is missing, which does not tell a newcomer what to install.
function(gravlab_require_build_tools)
  if(NOT DEFINED CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})
    find_program(GRAVLAB_CXX_PROBE NAMES c++ g++ clang++)
    if(NOT GRAVLAB_CXX_PROBE)
      gravlab_missing_debian_package("A C++ compiler (c++, g++ or clang++)" build-essential)
    endif()
  endif()
  if(CMAKE_GENERATOR STREQUAL "Unix Makefiles" AND NOT DEFINED CMAKE_MAKE_PROGRAM)
    find_program(GRAVLAB_MAKE_PROBE NAMES make gmake)
    if(NOT GRAVLAB_MAKE_PROBE)
      gravlab_missing_debian_package("make" build-essential)
    endif()
  endif()
endfunction()

# find_package(name ...) that names the Debian package when the CMake package is not found.
macro(gravlab_find_debian_package name package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    gravlab_missing_debian_package("The CMake package ${name}" ${package})
  endif()
endmacro()

# A cache variable filled by find_path or find_library that must not be left NOTFOUND.
function(gravlab_require_found variable what package)
  if(NOT ${variable})
    gravlab_missing_debian_package("${what}" ${package})
  endif()
endfunction()
