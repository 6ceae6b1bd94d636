# native-tests/consumer/run.cmake: builds and runs one consumer project, as a user of the library would.
#
#   cmake -DMODE=add_subdirectory|find_package|find_package_shared -DREPO=<cuckoo checkout> -DWORK=<scratch dir>
#         [-DGENERATOR=<cmake generator>] [-DCXX=<c++ compiler>] -P run.cmake
#
# find_package: configures the checkout on its own (library only, no sanitizers: a consumer's view),
# builds it, `cmake --install`s it into WORK/prefix, then builds the consumer against that prefix.
# add_subdirectory: builds the consumer, which pulls the checkout in with add_subdirectory().
# Everything happens in WORK, which is wiped first, so each run starts as on a fresh clone.
foreach(var MODE REPO WORK)
  if(NOT ${var})
    message(FATAL_ERROR "run.cmake: -D${var}=... is required")
  endif()
endforeach()

# Debug: this checks the build, install and link plumbing, not speed, and compiles ~3x faster than Release.
# The add_subdirectory consumer sets no build type at all, as many projects don't: the checkout must
# leave it empty (the consumer's CMakeLists.txt checks).
set(common_args)
if(GENERATOR)
  list(APPEND common_args -G "${GENERATOR}")
endif()
if(CXX)
  list(APPEND common_args "-DCMAKE_CXX_COMPILER=${CXX}")
endif()

function(run)
  message(STATUS "run.cmake: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run.cmake: command failed (${rc}): ${ARGN}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# find_package_shared: find_package against a shared build (BUILD_SHARED_LIBS), the consumer the same.
set(shared OFF)
if(MODE STREQUAL "find_package_shared")
  set(MODE find_package)
  set(shared ON)
endif()

set(consumer_args)
if(MODE STREQUAL "find_package")
  set(prefix "${WORK}/prefix")
  run(${CMAKE_COMMAND} -S "${REPO}" -B "${WORK}/cuckoo-build" ${common_args} -DCMAKE_BUILD_TYPE=Debug
      -DCUCKOO_BUILD_TESTS=OFF -DCUCKOO_BUILD_BENCH=OFF -DCUCKOO_BUILD_FUZZ=OFF -DCUCKOO_SANITIZE=OFF
      -DBUILD_SHARED_LIBS=${shared} "-DCMAKE_INSTALL_PREFIX=${prefix}")
  run(${CMAKE_COMMAND} --build "${WORK}/cuckoo-build")
  run(${CMAKE_COMMAND} --install "${WORK}/cuckoo-build" --prefix "${prefix}")
  # The install must carry the public headers and the package files.
  foreach(header cuckoo.h export.h filter.h format.h options.h internal/key_traits.h)
    if(NOT EXISTS "${prefix}/include/cuckoo/${header}")
      message(FATAL_ERROR "run.cmake: ${prefix}/include/cuckoo/${header} was not installed")
    endif()
  endforeach()
  # A shared build installs the versioned library (SONAME libcuckoo.so.MAJOR.MINOR; Debug adds the d).
  file(GLOB_RECURSE versioned "${prefix}/libcuckood.so.*")
  if(shared AND NOT versioned)
    message(FATAL_ERROR "run.cmake: a shared build installed no versioned libcuckood.so.* under ${prefix}")
  endif()
  list(APPEND consumer_args -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_PREFIX_PATH=${prefix}"
       "-DCUCKOO_EXPECTED_PREFIX=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
elseif(MODE STREQUAL "add_subdirectory")
  list(APPEND consumer_args "-DCUCKOO_SOURCE_DIR=${REPO}")
else()
  message(FATAL_ERROR "run.cmake: unknown MODE ${MODE}")
endif()

run(${CMAKE_COMMAND} -S "${REPO}/native-tests/consumer/${MODE}" -B "${WORK}/consumer-build" ${common_args}
    ${consumer_args})
run(${CMAKE_COMMAND} --build "${WORK}/consumer-build")
run("${WORK}/consumer-build/consumer")
# The shared consumer must have loaded the installed library, not found some other copy or a static one.
if(shared)
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES "${WORK}/consumer-build/consumer" RESOLVED_DEPENDENCIES_VAR loaded
       PRE_EXCLUDE_REGEXES "^lib(c|m|gcc_s|stdc\\+\\+)\\.so" POST_EXCLUDE_REGEXES "^/lib/" "^/usr/lib/")
  list(FILTER loaded INCLUDE REGEX "/libcuckood\\.so\\.[0-9]+\\.[0-9]+$")
  set(at -1)
  if(loaded)
    list(GET loaded 0 library)
    string(FIND "${library}" "${prefix}/" at)
  endif()
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "run.cmake: the shared consumer does not load libcuckood.so.MAJOR.MINOR from ${prefix}"
                        " (found: ${loaded})")
  endif()
  message(STATUS "run.cmake: the consumer loads ${library}")
endif()
