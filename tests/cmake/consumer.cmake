# One consumer test, run by ctest as
#   cmake -DSTEP=install|find_package|add_subdirectory -DSETTINGS=<consumer_settings.cmake> -P consumer.cmake
# SETTINGS (written by CMakeLists.txt) names this build: its source and binary
# directories, the install prefix, the compiler, launcher, generator and build type.
cmake_minimum_required(VERSION 3.24)
include("${SETTINGS}")

# Fails the test unless the command exits 0; its output goes to the ctest log.
function(run_or_fail what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

# Configures and builds the consumer project `name` in a fresh directory
# (`DIR`, default <name>-build); the build's output goes to the log and to
# CONSUMER_BUILD_OUTPUT. BUILD_TYPE overrides this build's type (add_subdirectory
# compiles the whole library again and uses Debug, the fastest to compile);
# NO_BUILD_TYPE configures with CMAKE_BUILD_TYPE empty, as a project that sets none.
function(build_consumer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_BUILD_TYPE" "BUILD_TYPE;DIR" "")
  set(dir "${name}-build")
  if(arg_DIR)
    set(dir "${arg_DIR}")
  endif()
  set(build "${WORK_ROOT}/${dir}")
  file(REMOVE_RECURSE "${build}")
  set(build_type "${BUILD_TYPE}")
  if(arg_NO_BUILD_TYPE)
    set(build_type "")
  elseif(arg_BUILD_TYPE)
    set(build_type "${arg_BUILD_TYPE}")
  elseif(build_type STREQUAL "")
    set(build_type Release)
  endif()
  run_or_fail("configuring the ${name} consumer"
              "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/cmake/${name}" -B "${build}" -G "${GENERATOR}"
              "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER}"
              "-DCMAKE_BUILD_TYPE=${build_type}" -DCMAKE_COLOR_DIAGNOSTICS=OFF ${arg_UNPARSED_ARGUMENTS})
  cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --parallel ${cores}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the ${name} consumer in ${dir} failed (${rc})")
  endif()
  set(CONSUMER_BUILD_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

# Issue 43 item 4: a checker says at start when its spec was compiled without
# optimisation (`optimised` TRUE: it must not say so).
function(expect_optimised checker optimised)
  execute_process(COMMAND "${checker}" --quiet RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "compiled without optimisation" said "${err}")  # the line holds a `;`: count the phrase
  list(LENGTH said lines)
  if(optimised AND NOT lines EQUAL 0)
    message(FATAL_ERROR "${checker}: built optimised, but says\n${err}")
  elseif(NOT optimised AND NOT lines EQUAL 1)
    message(FATAL_ERROR "${checker}: built without optimisation, expected one warning line saying so, got\n${err}")
  endif()
  message(STATUS "${checker}: exit ${rc}, optimised ${optimised}, warning lines: ${lines}")
endfunction()

# Runs a consumer's checker with 1 and 4 threads: exit 1, and the JSON names the
# violated invariant and the shortest trace, step by step.
function(expect_violation checker spec property)
  list(LENGTH ARGN length)
  foreach(threads 1 4)
    execute_process(COMMAND "${checker}" --format json --quiet --threads ${threads}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(run "${checker} --threads ${threads}")
    if(NOT rc EQUAL 1)
      message(FATAL_ERROR "${run}: exit ${rc}, expected 1 (violation)\n${out}${err}")
    endif()
    string(JSON got_spec ERROR_VARIABLE bad GET "${out}" run spec)
    if(bad)
      message(FATAL_ERROR "${run}: output is not the JSON report (${bad})\n${out}")
    endif()
    string(JSON result GET "${out}" outcome)
    string(JSON kind GET "${out}" violation kind)
    string(JSON got_property GET "${out}" violation property)
    string(JSON got_length GET "${out}" violation length)
    string(JSON steps LENGTH "${out}" violation trace)
    set(labels "")
    foreach(i RANGE 1 ${length})
      if(i LESS steps)
        string(JSON label GET "${out}" violation trace ${i} label)
        list(APPEND labels "${label}")
      endif()
    endforeach()
    set(got "${got_spec} ${result} ${kind} ${got_property} ${got_length} ${steps} [${labels}]")
    math(EXPR want_steps "${length} + 1")  # the trace starts with the initial state
    set(want "${spec} violation invariant ${property} ${length} ${want_steps} [${ARGN}]")
    if(NOT got STREQUAL want)
      message(FATAL_ERROR "${run}: got\n  ${got}\nexpected\n  ${want}")
    endif()
    message(STATUS "${run}: ${got}")
  endforeach()
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BINARY_DIR} failed; build every target first (cmake --build ${BINARY_DIR})")
  endif()
  set(package "${PREFIX}/${LIBDIR}/cmake/statecheck")
  foreach(file include/statecheck/statecheck.hpp include/statecheck/detail/model_ops.hpp
               include/statecheck/version.hpp include/statecheck/ids.hpp include/statecheck/bounded_set.hpp
               ${LIBDIR}/libstatecheck.a ${LIBDIR}/libstatecheck_main.a bin/statecheck
               ${LIBDIR}/cmake/statecheck/statecheckConfig.cmake
               ${LIBDIR}/cmake/statecheck/statecheckConfigVersion.cmake
               ${LIBDIR}/cmake/statecheck/statecheckTargets.cmake
               ${LIBDIR}/cmake/statecheck/StatecheckChecker.cmake)
    if(NOT EXISTS "${PREFIX}/${file}")
      message(FATAL_ERROR "the install lacks ${file}")
    endif()
  endforeach()
  if(EXISTS "${PREFIX}/include/statecheck/version.hpp.in")
    message(FATAL_ERROR "the install holds the template version.hpp.in; install the generated version.hpp only")
  endif()
  # The export names only installed paths and public targets.
  file(READ "${package}/statecheckTargets.cmake" targets)
  foreach(leak statecheck_warnings "${SOURCE_DIR}" "${BINARY_DIR}")
    string(FIND "${targets}" "${leak}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "statecheckTargets.cmake mentions ${leak}")
    endif()
  endforeach()
  execute_process(COMMAND "${PREFIX}/bin/statecheck" list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "die-hard" OR NOT out MATCHES "two-phase")
    message(FATAL_ERROR "installed bin/statecheck list: exit ${rc}, expected 0 and the bundled specs\n${out}")
  endif()
elseif(STEP STREQUAL "find_package")
  build_consumer(find_package "-DCMAKE_PREFIX_PATH=${PREFIX}")
  expect_violation("${WORK_ROOT}/find_package-build/mutex-checker" naive-mutex MutualExclusion
                   "Test(p=0)" "Test(p=1)" "Enter(p=0)" "Enter(p=1)")
  expect_optimised("${WORK_ROOT}/find_package-build/mutex-checker" TRUE)
  # Issue 43 item 8: statecheck_add_checker's -Wall catches the `/\` of tla_comment.cpp.
  if(NOT CONSUMER_BUILD_OUTPUT MATCHES "tla_comment.cpp:[0-9]+:[0-9]+: warning: multi-line[^\n]*-Wcomment")
    message(FATAL_ERROR "the consumer's build did not warn of the multi-line comment in tla_comment.cpp (-Wcomment)")
  endif()
  # Issue 43 item 4: a project that sets no build type still gets an optimised
  # checker; a Debug one runs unoptimised and says so.
  build_consumer(find_package "-DCMAKE_PREFIX_PATH=${PREFIX}" NO_BUILD_TYPE DIR find_package-no-build-type)
  expect_optimised("${WORK_ROOT}/find_package-no-build-type/mutex-checker" TRUE)
  build_consumer(find_package "-DCMAKE_PREFIX_PATH=${PREFIX}" BUILD_TYPE Debug DIR find_package-debug)
  expect_optimised("${WORK_ROOT}/find_package-debug/mutex-checker" FALSE)
elseif(STEP STREQUAL "add_subdirectory")
  build_consumer(add_subdirectory "-DSTATECHECK_SOURCE_DIR=${SOURCE_DIR}" "-DSTATECHECK_WERROR=${WERROR}"
                 BUILD_TYPE Debug)
  # Only the library was built: no tests, examples, HDDS specs or bundled binary.
  foreach(dir tests examples specs checker)
    if(EXISTS "${WORK_ROOT}/add_subdirectory-build/statecheck/${dir}")
      message(FATAL_ERROR "add_subdirectory(statecheck) configured statecheck's ${dir}/; only lib/ should be")
    endif()
  endforeach()
  expect_violation("${WORK_ROOT}/add_subdirectory-build/counter-checker" lost-update BothCounted
                   "Read(p=0)" "Read(p=1)" "Write(p=0)" "Write(p=1)")
else()
  message(FATAL_ERROR "STEP must be install, find_package or add_subdirectory, not '${STEP}'")
endif()
