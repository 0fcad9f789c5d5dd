# How a GoogleTest binary becomes ctest tests.
#
# REGEMU_TEST_GRANULARITY
#   test   (default) one ctest per gtest test, discovered after the build:
#          `ctest -R` picks single tests, and a failure is its own line.
#   binary one ctest per test binary, run with --gtest_brief=1: a sanitizer
#          run starts ~10 processes instead of ~2,500 (each paying the
#          sanitizer runtime's start-up), and a failure still names its
#          test in the output (`[  FAILED  ] Suite.Test` with its message).
include(GoogleTest)

set(REGEMU_TEST_GRANULARITY "test" CACHE STRING "One ctest per gtest 'test' (discovered) or per test 'binary'")
set_property(CACHE REGEMU_TEST_GRANULARITY PROPERTY STRINGS test binary)
if(NOT REGEMU_TEST_GRANULARITY MATCHES "^(test|binary)$")
  message(FATAL_ERROR "REGEMU_TEST_GRANULARITY is '${REGEMU_TEST_GRANULARITY}': use 'test' or 'binary'")
endif()

function(regemu_add_gtest target)
  if(REGEMU_TEST_GRANULARITY STREQUAL "binary")
    add_test(NAME ${target} COMMAND ${target} --gtest_brief=1)
  else()
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60)
  endif()
endfunction()
