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

# gmock (with gtest) is in every test file and takes longer to parse than
# most tests. One precompiled header, built once and reused by every test
# binary, keeps the two CI builds (Debug, then ASan) of ~200 test files
# affordable on 2 cores (a header per binary cost ~25 s of CPU each, ~20
# times per build). The PCH target compiles with the tests' warnings, so GCC
# accepts the header for all of them.
if(NOT TARGET regemu_gmock_pch)
  set(regemu_gmock_pch_source "${CMAKE_BINARY_DIR}/regemu_gmock_pch.cpp")
  file(CONFIGURE OUTPUT "${regemu_gmock_pch_source}"
    CONTENT "// The translation unit that owns the tests' shared precompiled gmock header.\n")
  # A package update leaves gmock's and libstdc++'s headers with mtimes
  # older than the PCH: Ninja would keep the PCH, and clang would then
  # refuse every test file ("modified since the precompiled header was
  # built") until it was deleted by hand. cmake/PchInputsCheck.cmake, run
  # before every build of the PCH, rewrites a header the PCH includes when
  # any of its headers changed, so that the PCH and its users are rebuilt.
  set(regemu_gmock_pch_stamp "${CMAKE_BINARY_DIR}/regemu_gmock_pch_inputs.hpp")
  add_custom_target(regemu_gmock_pch_inputs
    COMMAND ${CMAKE_COMMAND} -DCOMPILER=${CMAKE_CXX_COMPILER}
            "-DFLAGS=${CMAKE_CXX_FLAGS} ${CMAKE_CXX${CMAKE_CXX_STANDARD}_STANDARD_COMPILE_OPTION}"
            "-DINCLUDE_DIRS=$<TARGET_PROPERTY:GTest::gmock,INTERFACE_INCLUDE_DIRECTORIES>"
            "-DIMPLICIT_DIRS=${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES}"
            -DINCLUDE=gmock/gmock.h -DRECORD=${CMAKE_BINARY_DIR}/regemu_gmock_pch_inputs.txt
            -DSTAMP=${regemu_gmock_pch_stamp} -P ${PROJECT_SOURCE_DIR}/cmake/PchInputsCheck.cmake
    BYPRODUCTS ${regemu_gmock_pch_stamp}
    COMMENT "Checking the headers of the precompiled gmock header"
    VERBATIM)
  add_library(regemu_gmock_pch OBJECT "${regemu_gmock_pch_source}")
  add_dependencies(regemu_gmock_pch regemu_gmock_pch_inputs)
  target_link_libraries(regemu_gmock_pch PRIVATE GTest::gmock)
  target_precompile_headers(regemu_gmock_pch PRIVATE
    "$<$<COMPILE_LANGUAGE:CXX>:${regemu_gmock_pch_stamp}>" "$<$<COMPILE_LANGUAGE:CXX>:<gmock/gmock.h>>")
  regemu_set_warnings(regemu_gmock_pch)
  # With debug information, whatever the build type: GCC uses a PCH built
  # with -g in files built without it, not the other way round, and some
  # test binaries (trap_tests) are built with -g in every build type.
  target_compile_options(regemu_gmock_pch PRIVATE -g)
endif()

# regemu_add_gtest(TARGET [LABELS label...] [TIMEOUT seconds] [ENVIRONMENT VAR=value]
#                  [ENVIRONMENT_MODIFICATION VAR=op:value] [PREFIX prefix])
# LABELS, TIMEOUT, ENVIRONMENT and ENVIRONMENT_MODIFICATION (ctest's test
# properties, e.g. "ASAN_OPTIONS=string_append::handle_segv=1"; one
# variable each) go on every ctest made from TARGET (`ctest -L label`).
# PREFIX starts the name of each discovered test (`ctest -R trap.` picks a
# binary's tests).
function(regemu_add_gtest target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT;PREFIX;ENVIRONMENT;ENVIRONMENT_MODIFICATION" "LABELS")
  target_precompile_headers(${target} REUSE_FROM regemu_gmock_pch)
  set(properties)
  if(arg_LABELS)
    list(APPEND properties LABELS "${arg_LABELS}")
  endif()
  if(arg_TIMEOUT)
    list(APPEND properties TIMEOUT ${arg_TIMEOUT})
  endif()
  if(arg_ENVIRONMENT)
    list(APPEND properties ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
  if(arg_ENVIRONMENT_MODIFICATION)
    list(APPEND properties ENVIRONMENT_MODIFICATION "${arg_ENVIRONMENT_MODIFICATION}")
  endif()
  if(REGEMU_TEST_GRANULARITY STREQUAL "binary")
    add_test(NAME ${target} COMMAND ${target} --gtest_brief=1)
    if(properties)
      set_tests_properties(${target} PROPERTIES ${properties})
    endif()
  elseif(properties)
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${arg_PREFIX}" PROPERTIES ${properties})
  else()
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${arg_PREFIX}")
  endif()
endfunction()
