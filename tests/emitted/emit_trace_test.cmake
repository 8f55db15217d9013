# cmake -DBIN=statecheck -DSPEC=name -DSETS=a=1,b=2 -DDIR=dir -DNAME=name [-DGOLDEN=file] -P emit_trace_test.cmake
# Checks SPEC (which must find a violation: exit 1), saves the trace as
# DIR/NAME.json, then replays it with --emit-test, which writes the Catch2 test
# DIR/NAME_trace_test.cpp only when the trace reproduces (exit 0). The files
# are named relative to DIR, so that the test does not depend on where it was
# made. With GOLDEN (the committed test), fails unless the two are equal.
set(set_args)
if(SETS)
  string(REPLACE "," ";" sets "${SETS}")
  foreach(s IN LISTS sets)
    list(APPEND set_args --set ${s})
  endforeach()
endif()
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${BIN} check ${SPEC} ${set_args} --threads 2 --quiet --format json
                OUTPUT_FILE ${DIR}/${NAME}.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "statecheck check ${SPEC} ${set_args} exited ${rc}, not 1 (a violation)")
endif()
execute_process(COMMAND ${BIN} replay ${SPEC} ${NAME}.json --quiet --emit-test ${NAME}_trace_test.cpp
                WORKING_DIRECTORY ${DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "statecheck replay ${SPEC} ${NAME}.json exited ${rc}: the trace does not reproduce")
endif()
if(GOLDEN)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GOLDEN} ${DIR}/${NAME}_trace_test.cpp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${GOLDEN} differs from what replay --emit-test writes now (${DIR}/${NAME}_trace_test.cpp): "
                        "the counterexample changed. If that is intended, run the target regenerate_emitted_tests, "
                        "read the diff and commit it")
  endif()
endif()
