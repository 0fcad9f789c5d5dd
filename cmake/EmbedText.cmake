# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DSYMBOL=NAMESPACE::NAME -P EmbedText.cmake
# Writes a C++ source defining `extern const std::string_view NAME` in
# NAMESPACE that holds FILE's text, so a tool carries a data file (the
# database JSON Schema) without finding it on disk at run time.
file(READ "${INPUT}" text)
string(REGEX MATCH "^(.*)::([^:]+)$" _ "${SYMBOL}")
set(ns "${CMAKE_MATCH_1}")
set(name "${CMAKE_MATCH_2}")
# A raw string literal with a delimiter the text does not contain.
string(FIND "${text}" ")regemu_embedded\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter ')regemu_embedded\"'")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.\n"
  "#include <string_view>\n"
  "namespace ${ns} {\n"
  "extern const std::string_view ${name};\n"
  "const std::string_view ${name} = R\"regemu_embedded(${text})regemu_embedded\";\n"
  "}  // namespace ${ns}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
