# `cmake --install <build> --prefix P` lays out a CMake package: headers, the
# static libraries statecheck::statecheck and statecheck::main, the bundled
# binary, and lib/cmake/statecheck/ so that a consumer writes
#   find_package(statecheck 0.1 REQUIRED)
#   statecheck_add_checker(my-checker my_spec.cpp)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STATECHECK_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/statecheck")

# The headers, with the generated version.hpp in place of its template.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/lib/include/statecheck" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        PATTERN "*.in" EXCLUDE)
install(FILES "${PROJECT_BINARY_DIR}/lib/include/statecheck/version.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/statecheck")
install(TARGETS statecheck statecheck_main EXPORT statecheckTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
if(STATECHECK_BUILD_CHECKER)
  install(TARGETS statecheck_bin RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
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
