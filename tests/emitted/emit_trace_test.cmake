# cmake -DBIN=statecheck -DSPEC=name -DSETS=a=1,b=2 -DJSON=out.json -DCPP=out.cpp -P emit_trace_test.cmake
# Checks SPEC (which must find a violation: exit 1), saves the trace as JSON,
# then replays it with --emit-test, which writes the Catch2 test only when the
# trace reproduces (exit 0).
set(set_args)
if(SETS)
  string(REPLACE "," ";" sets "${SETS}")
  foreach(s IN LISTS sets)
    list(APPEND set_args --set ${s})
  endforeach()
endif()
execute_process(COMMAND ${BIN} check ${SPEC} ${set_args} --threads 2 --quiet --format json
                OUTPUT_FILE ${JSON} RESULT_VARIABLE rc)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "statecheck check ${SPEC} ${set_args} exited ${rc}, not 1 (a violation)")
endif()
execute_process(COMMAND ${BIN} replay ${SPEC} ${JSON} --quiet --emit-test ${CPP} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "statecheck replay ${SPEC} ${JSON} exited ${rc}: the trace does not reproduce")
endif()
