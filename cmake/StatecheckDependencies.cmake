# Every dependency comes from the system (Debian packages); nothing is vendored.
find_package(Boost 1.74 REQUIRED)          # Boost.Hana (header-only)
find_package(TBB REQUIRED)                 # oneTBB: the parallel search
find_package(spdlog REQUIRED)              # progress and logs
find_package(CLI11 REQUIRED)               # the command line
find_package(nlohmann_json 3.10 REQUIRED)  # --format json
find_package(PkgConfig REQUIRED)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)  # XXH3 fingerprints (inlined)
