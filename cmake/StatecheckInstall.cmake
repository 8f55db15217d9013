# `cmake --install <build> --prefix P` lays out a CMake package: headers, the
# static libraries statecheck::engine, statecheck::statecheck (the command line
# over it) and statecheck::main, the bundled
# binary, and lib/cmake/statecheck/ so that a consumer writes
#   find_package(statecheck 0.1 REQUIRED)
#   statecheck_add_checker(my-checker my_spec.cpp)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STATECHECK_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/statecheck")

# The headers a spec includes, listed one by one (the engine's private headers
# live in lib/src and are never installed), with the generated version.hpp in
# place of its template.
set(STATECHECK_PUBLIC_HEADERS
  action.hpp
  bounded_set.hpp
  check.hpp
  cli.hpp
  constants.hpp
  containers.hpp
  enum.hpp
  id_arrays.hpp
  ids.hpp
  member_traits.hpp
  mistakes.hpp
  one_of.hpp
  registry.hpp
  spec_entry.hpp
  report.hpp
  result.hpp
  spec.hpp
  statecheck.hpp
  symmetry.hpp
  time.hpp
  trace.hpp
  trace_walk.hpp
  value.hpp
)
set(STATECHECK_DETAIL_HEADERS  # what the public headers include
  detail/canonical.hpp
  detail/domains.hpp
  detail/exact_set.hpp
  detail/hash.hpp
  detail/id_array_checks.hpp
  detail/level_table.hpp
  detail/model.hpp
  detail/model_cold.hpp
  detail/model_ops.hpp
  detail/search.hpp
  detail/action_checks.hpp
  detail/choice.hpp
  detail/clip.hpp
  detail/clocks.hpp
  detail/signature.hpp
  detail/spec_checks.hpp
  detail/symmetry_types.hpp
  detail/time_step.hpp
  detail/utf8.hpp
  detail/transitions.hpp
  detail/visited_set.hpp
  detail/record_buffer.hpp
  detail/worker.hpp
)
# A header added to lib/include but not to the lists above would be missing
# from the package: refuse to configure until it is listed.
file(GLOB_RECURSE _statecheck_headers RELATIVE "${PROJECT_SOURCE_DIR}/lib/include/statecheck"
     "${PROJECT_SOURCE_DIR}/lib/include/statecheck/*.hpp")
foreach(_header IN LISTS _statecheck_headers)
  if(NOT _header IN_LIST STATECHECK_PUBLIC_HEADERS AND NOT _header IN_LIST STATECHECK_DETAIL_HEADERS)
    message(FATAL_ERROR "lib/include/statecheck/${_header} is not installed: add it to the header lists "
                        "in cmake/StatecheckInstall.cmake (or move it to lib/src if specs do not need it)")
  endif()
endforeach()
list(TRANSFORM STATECHECK_PUBLIC_HEADERS PREPEND "${PROJECT_SOURCE_DIR}/lib/include/statecheck/")
list(TRANSFORM STATECHECK_DETAIL_HEADERS PREPEND "${PROJECT_SOURCE_DIR}/lib/include/statecheck/")
install(FILES ${STATECHECK_PUBLIC_HEADERS} DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/statecheck")
install(FILES ${STATECHECK_DETAIL_HEADERS} DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/statecheck/detail")
install(FILES "${PROJECT_BINARY_DIR}/lib/include/statecheck/version.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/statecheck")
install(TARGETS statecheck_engine statecheck statecheck_main EXPORT statecheckTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
if(STATECHECK_BUILD_CHECKER)
  install(TARGETS statecheck_bin RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
if(STATECHECK_WITH_MPI)  # mpirun with statecheck's exit codes, for any checker (docs/long-runs.md, "Across machines")
  install(PROGRAMS "${PROJECT_SOURCE_DIR}/checker/statecheck-mpirun" DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()

install(EXPORT statecheckTargets NAMESPACE statecheck:: DESTINATION "${STATECHECK_CMAKE_DIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/statecheckConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/statecheckConfig.cmake"
                              INSTALL_DESTINATION "${STATECHECK_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/statecheckConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/statecheckConfig.cmake" "${PROJECT_BINARY_DIR}/statecheckConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/StatecheckChecker.cmake"
        DESTINATION "${STATECHECK_CMAKE_DIR}")
