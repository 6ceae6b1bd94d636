# Golden files (testdata/golden/): build the generator and tools, and check the committed files are exactly
# what the generator makes today. If this fails, the format or hashing changed: bump kFormatVersion and
# regenerate (testdata/golden/README.md). native-tests/golden_test.cpp checks the files' contents.
if(NOT TARGET make_golden)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tools ${CMAKE_BINARY_DIR}/tools)
endif()
add_test(NAME golden_files_up_to_date
  COMMAND make_golden --check ${PROJECT_SOURCE_DIR}/testdata/golden)
