# Every dependency comes from the system (Debian packages); nothing is vendored.
find_package(Boost 1.74 REQUIRED)          # Boost.Hana (header-only)
find_package(TBB REQUIRED)                 # oneTBB: the parallel search
find_package(spdlog REQUIRED)              # progress and logs
find_package(CLI11 REQUIRED)               # the command line
find_package(nlohmann_json 3.10 REQUIRED)  # --format json
find_package(PkgConfig REQUIRED)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)  # XXH3 fingerprints (inlined)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)      # the frontier's blocks in --workdir

# MPI (one check across processes) is optional: AUTO builds it in when
# find_package(MPI) finds a C++ binding; OFF builds and runs without it.
set(STATECHECK_MPI AUTO CACHE STRING "Build the multi-process search: AUTO, ON or OFF")
set_property(CACHE STATECHECK_MPI PROPERTY STRINGS AUTO ON OFF)
set(STATECHECK_WITH_MPI OFF)
if(NOT STATECHECK_MPI STREQUAL "OFF")
  set(MPI_CXX_SKIP_MPICXX ON)  # MPI's C interface from C++, without the deprecated C++ bindings
  if(STATECHECK_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(STATECHECK_WITH_MPI ON)
  endif()
endif()
message(STATUS "statecheck: multi-process search (MPI): ${STATECHECK_WITH_MPI}")
