# regemu_add_plugin(NAME <target> SOURCES <file>...)
#
# A plugin for `regemu --plugin LIB.so` (emulator/behaviour_registry.hpp,
# REGEMU_PLUGIN): a MODULE library compiled against regemu's headers and
# linked against none of its libraries. The `regemu` executable that loads
# it exports the whole of regdb and the emulator, and the plugin's
# references to them resolve there; linking regemu's static libraries in
# as well would give the plugin a second copy of the kind registry, where
# its kinds would be registered unseen.
#
# The same file serves regemu's own build and an installed package
# (find_package(regemu) includes it).
function(regemu_add_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME" "SOURCES")
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "regemu_add_plugin: NAME and SOURCES are required")
  endif()
  if(TARGET regemu_regdb)
    set(regdb regemu_regdb)     # regemu's own build
  elseif(TARGET regemu::regdb)
    set(regdb regemu::regdb)    # the installed package
  else()
    message(FATAL_ERROR "regemu_add_plugin: no regemu::regdb; call find_package(regemu) first")
  endif()
  add_library(${ARG_NAME} MODULE ${ARG_SOURCES})
  # The headers only: regemu's, and range-v3's (header-only), which they include.
  target_include_directories(${ARG_NAME} PRIVATE $<TARGET_PROPERTY:${regdb},INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${ARG_NAME} PRIVATE range-v3::range-v3)
  target_compile_features(${ARG_NAME} PRIVATE cxx_std_20)
endfunction()
