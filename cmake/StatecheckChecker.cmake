# statecheck_add_checker(<target> <source>...)
#
# Builds a checker binary for the specs registered (STATECHECK_REGISTER) in the
# given sources, with the full statecheck command line:
#   <target> --set name=value --threads 4 --format json ...
#
# The search is compiled in the spec's own files, so their flags decide its
# speed: a project that sets no CMAKE_BUILD_TYPE (CMake then passes no -O at
# all) gets -O2 for the checker, unless its CMAKE_CXX_FLAGS already choose an
# -O level. A checker built unoptimised anyway (Debug) says so when it runs.
#
# The spec's files also get -Wall (GCC and Clang), whose -Wcomment catches a
# TLA+ `/\` at the end of a `//` comment: the backslash continues the comment
# onto the next line, which silently disappears. Warnings only, never -Werror;
# set STATECHECK_CHECKER_WARNINGS to OFF to leave the flags to the project.
option(STATECHECK_CHECKER_WARNINGS "statecheck_add_checker: compile the specs with -Wall" ON)

# Gives `target` -O2 when nothing else chose an optimisation level: a
# single-config generator, no CMAKE_BUILD_TYPE, no -O in CMAKE_CXX_FLAGS. Also
# used for statecheck's own libraries when a project that sets no build type
# builds them with add_subdirectory: their search loop is as hot as the spec.
function(statecheck_optimise_by_default target)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config AND NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CXX_FLAGS MATCHES "(^| )[-/]O")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-O2>)
  endif()
endfunction()

function(statecheck_add_checker target)
  if(ARGC LESS 2)
    message(FATAL_ERROR "statecheck_add_checker(${target} <spec.cpp>...): give at least one source")
  endif()
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE statecheck::statecheck statecheck::main)
  statecheck_optimise_by_default(${target})
  if(STATECHECK_CHECKER_WARNINGS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall>)
  endif()
endfunction()
