# regemu_add_device(NAME <name> DB <database file or device folder> [NO_CHECK] [GENERATED]
#                   [NO_CXX_SELFTEST] [CHANGED_ONLY] [PREFIX <C macro prefix>])
#
# PREFIX: what the C header's macros start with (`regemu header --prefix`),
# over the database's `c_prefix:`; by default the device name in upper case.
#
# GENERATED: DB is a root file that a custom command of the same directory
# writes (a converted database), so it need not exist at configure time.
#
# NO_CXX_SELFTEST: no <name>_regs_selftest. For maps of thousands of
# registers (a converted GPU core), whose C++ self-test is megabytes of
# static_asserts that take many minutes to compile; the C self-test stays.
#
# CHANGED_ONLY: DB is an overlay over such a map (yaml/mi200 over
# yaml/gc_9_4_2): the headers and self-tests hold only the registers its
# changes name (`regemu header --changed-only`), not the map's thousands.
#
# Generates the device's register headers at build time (like TableGen's
# tablegen()) with `regemu header`, and defines:
#   regemu::<name>_regs       an INTERFACE target: #include "regemu/regs/<name>.hpp" (C++20)
#                             or "regemu/regs/<name>.h" (C11), plus regemu/{hwreg.hpp,reg_bits.h}
#   <name>_regs_selftest      the generated C++ self-test, registered with ctest (not with NO_CXX_SELFTEST)
#   <name>_regs_selftest_c    the generated C self-test, registered with ctest
#                             (only when the project enables C)
# The generated files are build outputs under ${CMAKE_CURRENT_BINARY_DIR}/regemu_regs/<name>/,
# never committed. They are regenerated when any file the database reads
# changes, included files in other folders too (`regemu header --depfile`).
#
# The same file serves regemu's own build and an installed package
# (find_package(regemu) includes it): it needs only the `regemu` tool and
# the regemu::hwreg target, whichever tree they come from.

function(regemu_add_device)
  cmake_parse_arguments(ARG "NO_CHECK;GENERATED;NO_CXX_SELFTEST;CHANGED_ONLY" "NAME;DB;PREFIX" "" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_DB)
    message(FATAL_ERROR "regemu_add_device: NAME and DB are required")
  endif()
  if(TARGET regemu::regemu)
    set(tool regemu::regemu)    # the installed package's tool (an imported target)
    set(tool_dependency $<TARGET_FILE:regemu::regemu>)
  elseif(TARGET regemu)
    set(tool regemu)            # regemu's own build: a target-level dependency
    set(tool_dependency regemu)
  else()
    message(FATAL_ERROR "regemu_add_device: no regemu tool; call find_package(regemu) first")
  endif()
  set(db ${ARG_DB})
  if(NOT IS_ABSOLUTE ${db})
    set(db ${CMAKE_CURRENT_SOURCE_DIR}/${db})
  endif()
  if(NOT EXISTS ${db} AND NOT ARG_GENERATED)
    message(FATAL_ERROR "regemu_add_device(${ARG_NAME}): no database at ${db}")
  endif()
  if(IS_DIRECTORY ${db} AND NOT ARG_GENERATED)
    file(GLOB_RECURSE deps CONFIGURE_DEPENDS ${db}/*.yaml)
  else()
    set(deps ${db})
  endif()
  set(header_flags)
  if(ARG_NO_CHECK)
    list(APPEND header_flags --no-check)
  endif()
  if(ARG_CHANGED_ONLY)
    list(APPEND header_flags --changed-only)
  endif()
  set(prefix)
  if(ARG_PREFIX)
    set(prefix --prefix ${ARG_PREFIX})
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)

  set(out ${CMAKE_CURRENT_BINARY_DIR}/regemu_regs/${ARG_NAME})
  set(regs_dir ${out}/include/regemu/regs)
  set(hpp ${regs_dir}/${ARG_NAME}.hpp)
  set(h ${regs_dir}/${ARG_NAME}.h)
  set(cpp_selftest ${out}/${ARG_NAME}_selftest.cpp)
  set(c_selftest ${out}/${ARG_NAME}_selftest.c)
  # CMake reads depfiles with Ninja, and with Makefiles since 3.20.
  set(depfile_hpp)
  set(depfile_h)
  if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
    set(depfile_hpp DEPFILE ${hpp}.d)
    set(depfile_h DEPFILE ${h}.d)
  endif()
  # The glob names the folder's files before the first build; the depfile
  # `regemu header` writes names every file the database read, included ones
  # in other folders too (an overlay's imported map), from then on.
  add_custom_command(
    OUTPUT ${hpp} ${cpp_selftest}
    COMMAND $<TARGET_FILE:${tool}> header ${db} --lang c++ -o ${hpp} --selftest ${cpp_selftest} ${header_flags}
            --depfile ${hpp}.d
    DEPENDS ${tool_dependency} ${deps}
    ${depfile_hpp}
    COMMENT "regemu header: ${ARG_NAME}.hpp"
    VERBATIM)
  add_custom_command(
    OUTPUT ${h} ${c_selftest}
    COMMAND $<TARGET_FILE:${tool}> header ${db} --lang c -o ${h} --selftest ${c_selftest} ${header_flags} ${prefix}
            --depfile ${h}.d
    DEPENDS ${tool_dependency} ${deps}
    ${depfile_h}
    COMMENT "regemu header: ${ARG_NAME}.h"
    VERBATIM)
  add_custom_target(${ARG_NAME}_regs_gen DEPENDS ${hpp} ${h})

  add_library(${ARG_NAME}_regs INTERFACE)
  add_library(regemu::${ARG_NAME}_regs ALIAS ${ARG_NAME}_regs)
  add_dependencies(${ARG_NAME}_regs ${ARG_NAME}_regs_gen)
  target_include_directories(${ARG_NAME}_regs INTERFACE ${out}/include)
  target_link_libraries(${ARG_NAME}_regs INTERFACE regemu::hwreg)

  # The self-tests are built with the strict warning set the headers promise
  # to be clean under.
  set(warnings -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion)
  if(REGEMU_WERROR)
    list(APPEND warnings -Werror)
  endif()
  if(NOT ARG_NO_CXX_SELFTEST)
    add_executable(${ARG_NAME}_regs_selftest ${cpp_selftest})
    target_include_directories(${ARG_NAME}_regs_selftest PRIVATE ${regs_dir})
    target_link_libraries(${ARG_NAME}_regs_selftest PRIVATE ${ARG_NAME}_regs)
    target_compile_options(${ARG_NAME}_regs_selftest PRIVATE ${warnings} -Wold-style-cast)
    add_test(NAME ${ARG_NAME}_regs_selftest COMMAND ${ARG_NAME}_regs_selftest)
  endif()

  if(C IN_LIST languages)
    add_executable(${ARG_NAME}_regs_selftest_c ${c_selftest})
    set_target_properties(${ARG_NAME}_regs_selftest_c PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
    target_include_directories(${ARG_NAME}_regs_selftest_c PRIVATE ${regs_dir})
    target_link_libraries(${ARG_NAME}_regs_selftest_c PRIVATE ${ARG_NAME}_regs)
    target_compile_options(${ARG_NAME}_regs_selftest_c PRIVATE ${warnings})
    add_test(NAME ${ARG_NAME}_regs_selftest_c COMMAND ${ARG_NAME}_regs_selftest_c)
  endif()
endfunction()
