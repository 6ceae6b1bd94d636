# The README's C++ example, compiled and run as written, so that the quick start cannot go stale. The block
# after the "## C++" heading is cut out of README.md when CMake configures (a README edit reconfigures).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md)
file(READ ${PROJECT_SOURCE_DIR}/README.md CUCKOO_README)
if(NOT CUCKOO_README MATCHES "\n## C\\+\\+\n+```cpp\n([^`]*)```")
  message(FATAL_ERROR "native-tests/readme.cmake: no ```cpp block right after the README's '## C++' heading")
endif()
# CONFIGURE rewrites the file only when the example changed, so an unrelated README edit rebuilds nothing.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp CONTENT "${CMAKE_MATCH_1}" @ONLY)
add_executable(readme_example ${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp)
target_link_libraries(readme_example PRIVATE cuckoo::cuckoo)
add_test(NAME readme_cpp_example COMMAND readme_example)
# What the example's comments promise it prints.
set_tests_properties(readme_cpp_example PROPERTIES PASS_REGULAR_EXPRESSION "^1 0\n1\n$")
