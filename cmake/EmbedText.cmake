# cmake -DINPUT=FILE -DOUTPUT=FILE.cpp -DSYMBOL=NAMESPACE::NAME -P EmbedText.cmake
# Writes a C++ source defining `extern const std::string_view NAME` in
# NAMESPACE that holds FILE's text, so a tool carries a data file (the
# database JSON Schema) without finding it on disk at run time.
#
# The text is a char array of byte values, not a string literal: a literal
# over 65,536 characters is past what C++ compilers must support (clang's
# -Woverlength-strings, an error under -Wpedantic -Werror).
file(READ "${INPUT}" hex HEX)
string(REGEX MATCH "^(.*)::([^:]+)$" _ "${SYMBOL}")
set(ns "${CMAKE_MATCH_1}")
set(name "${CMAKE_MATCH_2}")
# Character literals ('\xe2'), not integers: a byte over 0x7f as an
# integer would narrow to char.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.\n"
  "#include <string_view>\n"
  "namespace ${ns} {\n"
  "namespace {\n"
  "constexpr char kBytes[] = {\n${bytes}};\n"
  "}  // namespace\n"
  "extern const std::string_view ${name};\n"
  "const std::string_view ${name}(kBytes, sizeof kBytes);\n"
  "}  // namespace ${ns}\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
