# statecheck_add_checker(<target> <source>...)
#
# Builds a checker binary for the specs registered (STATECHECK_REGISTER) in the
# given sources, with the full statecheck command line:
#   <target> --set name=value --threads 4 --format json ...
function(statecheck_add_checker target)
  if(ARGC LESS 2)
    message(FATAL_ERROR "statecheck_add_checker(${target} <spec.cpp>...): give at least one source")
  endif()
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE statecheck::statecheck statecheck::main)
endfunction()
