# Consumer projects (native-tests/consumer/): the library as users get it, both ways CMake offers.
# - consumer_add_subdirectory: a project that add_subdirectory()s this checkout and links cuckoo::cuckoo.
# - consumer_find_package: `cmake --install` of this checkout into a scratch prefix, then a project that
#   find_package(cuckoo CONFIG REQUIRED)s it from there and links cuckoo::cuckoo.
# - consumer_find_package_shared: the same with a shared build (BUILD_SHARED_LIBS=ON), libcuckoo.so.
# Each configures and builds from scratch in the build tree (a fresh-clone check, not an incremental one),
# with the same compiler and generator as this build but without its sanitizer flags.
foreach(mode add_subdirectory find_package find_package_shared)
  add_test(NAME consumer_${mode}
    COMMAND ${CMAKE_COMMAND} -DMODE=${mode} -DREPO=${PROJECT_SOURCE_DIR}
            -DWORK=${CMAKE_BINARY_DIR}/consumer/${mode} -DGENERATOR=${CMAKE_GENERATOR}
            -DCXX=${CMAKE_CXX_COMPILER} -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake)
  set_tests_properties(consumer_${mode} PROPERTIES TIMEOUT 600 LABELS consumer)
endforeach()
