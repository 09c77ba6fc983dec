# Finds a CBLAS library for kt's host GEMMs and defines the imported target kt::cblas (with
# its include directory and kt's KT_ENABLE_CBLAS definitions). OpenBLAS' OpenMP build is
# preferred (Debian: libopenblas-openmp-dev): it brings no thread pool besides Kokkos' OpenMP
# one. Any other build works too: kt calls the library on one thread and threads GEMMs itself
# (include/kt/backend/impl/gemm_blas.hpp). Used by kt's own build and by the installed
# ktConfig.cmake, so a consumer finds the library on its own machine.
if(NOT TARGET kt::cblas)
  set(_kt_openblas_omp_lib "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp")
  set(_kt_openblas_omp_inc "/usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp")
  find_library(KT_CBLAS_LIBRARY NAMES openblas PATHS "${_kt_openblas_omp_lib}" NO_DEFAULT_PATH)
  find_path(KT_CBLAS_INCLUDE_DIR cblas.h PATHS "${_kt_openblas_omp_inc}" NO_DEFAULT_PATH)
  find_library(KT_CBLAS_LIBRARY NAMES openblas)  # no-ops when already found above
  find_path(KT_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas)
  if(KT_CBLAS_LIBRARY AND KT_CBLAS_INCLUDE_DIR)
    add_library(kt::cblas UNKNOWN IMPORTED)
    set_target_properties(kt::cblas PROPERTIES
      IMPORTED_LOCATION "${KT_CBLAS_LIBRARY}"
      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${KT_CBLAS_INCLUDE_DIR}"
      INTERFACE_INCLUDE_DIRECTORIES "${KT_CBLAS_INCLUDE_DIR}"
      INTERFACE_COMPILE_DEFINITIONS "KT_ENABLE_CBLAS;KT_CBLAS_IS_OPENBLAS")
  endif()
endif()
