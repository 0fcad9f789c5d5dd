# ctest driver for one tests/scripts/*.script: runs `regemu run DB SCRIPT`
# from the source tree and checks the exit code its header announces, and
# for a failing script the word its output must contain (the violation kind).
# Called as: cmake -DREGEMU=... -DSOURCE_DIR=... -DDB=... -DSCRIPT=...
#                  -DEXPECT_EXIT=N [-DEXPECT_WORD=w] -P RunScriptTest.cmake
execute_process(
  COMMAND "${REGEMU}" run "${DB}" "${SCRIPT}"
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE exit_code
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
message("${out}${err}")
if(NOT exit_code STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "regemu run ${DB} ${SCRIPT}: exit ${exit_code}, the script's header says ${EXPECT_EXIT}")
endif()
if(DEFINED EXPECT_WORD AND NOT EXPECT_WORD STREQUAL "")
  string(FIND "${out}${err}" "${EXPECT_WORD}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "regemu run ${DB} ${SCRIPT}: the output does not name '${EXPECT_WORD}'")
  endif()
endif()
