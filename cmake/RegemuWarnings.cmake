# One place for the warning set, so every target is built the same way.
function(regemu_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O3 reports false -Wrestrict positives inside std::string's
    # operator+ (GCC bug 105329), which -Werror would turn into build failures.
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(REGEMU_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
