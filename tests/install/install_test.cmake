# Runs as `cmake -P` (tests/install/CMakeLists.txt gives the variables): install into a prefix
# in the build tree, run the installed tool, check the package files, build and run the
# consumers (find_package and pkg-config).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
# k2grb must be found through the installed files, not the environment: the loader's path
# holds only GraphBLAS's folder
get_filename_component(gb_libdir ${GRAPHBLAS_LIBRARY} DIRECTORY)
set(ENV{LD_LIBRARY_PATH} "${gb_libdir}")
unset(ENV{CMAKE_PREFIX_PATH})
unset(ENV{PKG_CONFIG_PATH})
# GraphBLAS outside the compiler's paths (unpacked packages): the consumers are told where it
# is, as a user would; in a standard place k2grbConfig.cmake must find it by itself.
set(gb_hints)
set(gb_flags)
if(NOT gb_libdir MATCHES "^(/usr(/local)?)?/lib")
  set(gb_hints -DGRAPHBLAS_INCLUDE_DIR=${GRAPHBLAS_INCLUDE_DIR} -DGRAPHBLAS_LIBRARY=${GRAPHBLAS_LIBRARY})
  set(gb_flags -I${GRAPHBLAS_INCLUDE_DIR} -L${gb_libdir})
endif()
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
function(expect text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected /${regex}/ in:\n${text}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f ${LIBDIR}/libk2grb.so ${LIBDIR}/pkgconfig/k2grb.pc ${LIBDIR}/cmake/k2grb/k2grbConfig.cmake
          include/k2grb.h include/k2grb/version.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()
if(WITH_ALGORITHMS)
  foreach(f ${LIBDIR}/libk2grb_algorithms.so.${VERSION} ${LIBDIR}/pkgconfig/k2grb_algorithms.pc
            include/k2grb_algorithms.h)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${prefix}/${f}")
    endif()
  endforeach()
endif()

# The CMake package names targets, never a file of this machine (GraphBLAS is found again by
# k2grbConfig.cmake) nor of the build or source tree.
file(GLOB pkgfiles ${prefix}/${LIBDIR}/cmake/k2grb/*.cmake)
foreach(f ${pkgfiles})
  file(READ ${f} text)
  foreach(bad "/usr/lib" "/usr/include" "${GRAPHBLAS_LIBRARY}" "${BUILD_DIR}" "${SOURCE_DIR}")
    string(FIND "${text}" "${bad}" at)
    if(at GREATER -1)
      message(FATAL_ERROR "${f} names the path ${bad}")
    endif()
  endforeach()
endforeach()

# The installed tool runs from the prefix with no LD_LIBRARY_PATH (RUNPATH $ORIGIN/../lib) and
# loads the installed libraries, not the build tree's.
if(WITH_TOOL)
  set(tool ${prefix}/${BINDIR}/k2grb)
  run(${tool} --version)
  expect("${last_output}" "^k2grb ${VERSION}\nSuiteSparse:GraphBLAS [1-9][0-9]*\\.[0-9]+\\.[0-9]+\n$" "k2grb --version")
  message(STATUS "installed k2grb --version:\n${last_output}")
  find_program(LDD ldd)
  if(LDD)
    run(${LDD} ${tool})
    expect("${last_output}" "libk2grb\\.so[.0-9]* => ${prefix}/" "the tool's libk2grb")
    if(WITH_ALGORITHMS)
      expect("${last_output}" "libk2grb_algorithms\\.so[.0-9]* => ${prefix}/" "the tool's libk2grb_algorithms")
    endif()
  endif()
  # a 5-node graph of 6 edges (Matrix Market, 1-based)
  file(WRITE ${WORK_DIR}/tiny.mtx "%%MatrixMarket matrix coordinate pattern general\n"
             "5 5 6\n1 2\n2 3\n3 4\n4 5\n5 1\n1 3\n")
  run(${tool} info ${WORK_DIR}/tiny.mtx)
  expect("${last_output}" "nodes[^0-9\n]*5\n" "k2grb info: nodes")
  expect("${last_output}" "edges[^0-9\n]*6\n" "k2grb info: edges")
  message(STATUS "installed k2grb info:\n${last_output}")
endif()

# find_package: CMAKE_PREFIX_PATH is the prefix; the program links k2grb::k2grb and, where the
# algorithms are built, k2grb::algorithms (and runs a BFS)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER}
    -DK2GRB_CONSUMER_ALGORITHMS=${WITH_ALGORITHMS} ${gb_hints})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
expect("${last_output}" "k2grb ${VERSION}" "find_package consumer")
if(WITH_ALGORITHMS)
  expect("${last_output}" "bfs levels 0 1 2 3: ok" "find_package consumer")
endif()
message(STATUS "find_package consumer: ${last_output}")

# pkg-config: k2grb_algorithms.pc (requires k2grb.pc), or k2grb.pc alone
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found: the pkg-config consumer cannot be checked")
endif()
set(ENV{PKG_CONFIG_PATH} "${prefix}/${LIBDIR}/pkgconfig")
set(pc k2grb)
set(defs)
if(WITH_ALGORITHMS)
  set(pc k2grb_algorithms)
  set(defs -DK2GRB_CONSUMER_ALGORITHMS=1)
endif()
run(${PKG_CONFIG} --cflags --libs ${pc})
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${PKG_CONFIG} --variable=libdir ${pc})
string(STRIP "${last_output}" pclibdir)
run(${PKG_CONFIG} --modversion ${pc})
expect("${last_output}" "^${VERSION}" "pkg-config --modversion ${pc}")
run(${C_COMPILER} ${SOURCE_DIR}/examples/consumer/main.c -o ${WORK_DIR}/consumer_pc ${defs} ${flags}
    ${gb_flags} -Wl,-rpath,${pclibdir})
run(${WORK_DIR}/consumer_pc)
expect("${last_output}" "k2grb ${VERSION}" "pkg-config consumer")
if(WITH_ALGORITHMS)
  expect("${last_output}" "bfs levels 0 1 2 3: ok" "pkg-config consumer")
endif()
message(STATUS "pkg-config consumer: ${last_output}")
