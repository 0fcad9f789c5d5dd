# ctest driver for coverage end to end (docs/coverage.md): existing
# suites write one coverage file per test process when REGEMU_COVERAGE is
# set, with no code change (a DeviceTest gtest suite and the C shim's
# test), a C program switches it on in code instead, and `regemu coverage`
# merges and reports what they wrote.
# Called as: cmake -DREGEMU=... -DDRIVER_TESTS=... -DC_SHIM_TEST=...
#                  -DC_SHIM_COVERAGE=... -DWORK_DIR=... -P RunCoverageTest.cmake
string(RANDOM LENGTH 10 suffix)
set(dir "${WORK_DIR}/coverage-e2e-${suffix}")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}/work")

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${dir}/work"
    RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT exit_code EQUAL 0)
    message(FATAL_ERROR "${what}: exit ${exit_code}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_files pattern count what)
  file(GLOB found "${dir}/${pattern}")
  list(LENGTH found n)
  if(NOT n EQUAL count)
    message(FATAL_ERROR "${what}: ${n} coverage file(s) (${found}), expected ${count}")
  endif()
endfunction()

run("the i915_mini gtest suite" ${CMAKE_COMMAND} -E env "REGEMU_COVERAGE=${dir}/gtest/%p.json"
    "${DRIVER_TESTS}" --gtest_brief=1)
expect_files("gtest/*.json" 1 "the i915_mini gtest suite, one process")
run("the C shim's test" ${CMAKE_COMMAND} -E env "REGEMU_COVERAGE=${dir}/c/%p.json" "${C_SHIM_TEST}")
expect_files("c/*.json" 1 "the C shim's test")
run("regemu_enable_coverage" ${CMAKE_COMMAND} -E env --unset=REGEMU_COVERAGE
    "${C_SHIM_COVERAGE}" "${dir}/code/c-%p.json")
expect_files("code/c-*.json" 1 "regemu_enable_coverage")
run("a process without coverage" ${CMAKE_COMMAND} -E env --unset=REGEMU_COVERAGE "${C_SHIM_TEST}")
file(GLOB stray "${dir}/work/*.json")
if(stray)
  message(FATAL_ERROR "a process without coverage wrote ${stray}")
endif()

file(GLOB files "${dir}/gtest/*.json" "${dir}/c/*.json" "${dir}/code/*.json")
run("regemu coverage merge" "${REGEMU}" coverage merge -o "${dir}/merged.json" ${files})
run("regemu coverage report" "${REGEMU}" coverage report "${dir}/merged.json")
message("${out}")
foreach(expected "icl: 3 test processes" "hsw: 1 test process" "registers read"
                 "forcewake (forcewake): domains woken" "irq (gen11-interrupts): engines serviced")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the report does not say '${expected}'")
  endif()
endforeach()
run("regemu coverage report --json" "${REGEMU}" coverage report --json "${dir}/gtest" "${dir}/c" "${dir}/code")
string(JSON models LENGTH "${out}" models)
if(models LESS 2)
  message(FATAL_ERROR "the JSON report has ${models} model(s), expected icl, hsw and the C test's own")
endif()
file(REMOVE_RECURSE "${dir}")
