# The README's C++ examples, compiled and run as written, so that the quick start cannot go stale. The block
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

# The second ```cpp block after "## C++": a view of a saved filter, opened from a file the CLI builds.
string(FIND "${CUCKOO_README}" "\n## C++\n" cuckoo_cpp_at)
string(SUBSTRING "${CUCKOO_README}" ${cuckoo_cpp_at} -1 cuckoo_cpp_section)
string(FIND "${cuckoo_cpp_section}" "\n```\n" cuckoo_first_end)  # the end of the first block
string(SUBSTRING "${cuckoo_cpp_section}" ${cuckoo_first_end} -1 cuckoo_after_first)
string(FIND "${cuckoo_after_first}" "\n```cpp\n" cuckoo_second_at)
if(cuckoo_second_at EQUAL -1)
  message(FATAL_ERROR "native-tests/readme.cmake: no second ```cpp block after the README's '## C++' heading")
endif()
math(EXPR cuckoo_second_at "${cuckoo_second_at} + 8")
string(SUBSTRING "${cuckoo_after_first}" ${cuckoo_second_at} -1 cuckoo_second)
string(FIND "${cuckoo_second}" "\n```" cuckoo_second_end)
string(SUBSTRING "${cuckoo_second}" 0 ${cuckoo_second_end} cuckoo_second)
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/readme_view_example.cpp CONTENT "${cuckoo_second}\n" @ONLY)
add_executable(readme_view_example ${CMAKE_CURRENT_BINARY_DIR}/readme_view_example.cpp)
target_link_libraries(readme_view_example PRIVATE cuckoo::cuckoo)
if(TARGET cuckoo_cli)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/readme_view)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_view/hosts.txt "example.com\nexample.org\n")
  add_test(NAME readme_cpp_view_example
    COMMAND sh -c "'$<TARGET_FILE:cuckoo_cli>' build -q -o blocklist.cuckoo hosts.txt && '$<TARGET_FILE:readme_view_example>'"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/readme_view)
  set_tests_properties(readme_cpp_view_example PROPERTIES PASS_REGULAR_EXPRESSION "^1\n$")
endif()
