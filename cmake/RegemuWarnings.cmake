# One place for the warning set, so every target is built the same way.
function(regemu_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 at -O3 reports false -Wrestrict positives inside std::string's
    # operator+ (GCC bug 105329), and false -Warray-bounds, -Wstringop-overflow
    # and -Wstringop-overread ones in the same inlined memcpy (a string literal
    # + a temporary string), which -Werror would turn into build failures of a
    # plain Release build.
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-array-bounds
      -Wno-stringop-overflow -Wno-stringop-overread)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC's -Wmaybe-uninitialized misfires on std::optional<T> once inlining
    # is on (-O2/-O3, TSan builds; GCC bug 80635), so it cannot gate the
    # build. clang's -Wsometimes-uninitialized and the sanitizer runs cover
    # real uses of uninitialized values.
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
  endif()
  if(REGEMU_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
