# One place for the warning set, so every target is built the same way.
function(regemu_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
  if(REGEMU_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
