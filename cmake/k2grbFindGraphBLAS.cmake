# Finds SuiteSparse:GraphBLAS (Debian: libgraphblas-dev; elsewhere set GRAPHBLAS_ROOT) and makes
# the imported target k2grb::k2_graphblas. Used by the build and by the installed package
# (k2grbConfig.cmake), so that the exported targets name the target, never a path.
if(NOT TARGET k2grb::k2_graphblas)
  find_path(GRAPHBLAS_INCLUDE_DIR GraphBLAS.h HINTS ${GRAPHBLAS_ROOT}/include ENV GRAPHBLAS_ROOT
            PATH_SUFFIXES include suitesparse)
  find_library(GRAPHBLAS_LIBRARY NAMES graphblas HINTS ${GRAPHBLAS_ROOT}/lib ENV GRAPHBLAS_ROOT
               PATH_SUFFIXES lib lib64 ${CMAKE_LIBRARY_ARCHITECTURE})
  if(GRAPHBLAS_INCLUDE_DIR AND GRAPHBLAS_LIBRARY)
    add_library(k2grb::k2_graphblas UNKNOWN IMPORTED)
    set_target_properties(k2grb::k2_graphblas PROPERTIES
      IMPORTED_LOCATION "${GRAPHBLAS_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${GRAPHBLAS_INCLUDE_DIR}")
  endif()
endif()
