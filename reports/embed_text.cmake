# cmake -DINPUT=file -DOUTPUT=file.cc -DNAME=kName -P embed_text.cmake: writes a C++ file defining
# gpudiag::detail::NAME, a std::string_view of INPUT's bytes (a raw string literal).
file(READ "${INPUT}" text)
string(FIND "${text}" ")gpudiag\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )gpudiag\"")
endif()
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by embed_text.cmake; do not edit.\n#include <string_view>\n\n")
file(APPEND "${OUTPUT}" "namespace gpudiag::detail {\nextern const std::string_view ${NAME};\n")
file(APPEND "${OUTPUT}" "constexpr char ${NAME}_text[] = R\"gpudiag(${text})gpudiag\";\n")
file(APPEND "${OUTPUT}" "const std::string_view ${NAME}(${NAME}_text, sizeof(${NAME}_text) - 1);\n}  // namespace gpudiag::detail\n")
