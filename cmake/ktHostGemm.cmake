# Host GEMM libraries for kt::kt: Eigen (header-only) and a CBLAS library, each optional.
# OpenBLAS' OpenMP build is preferred (Debian: libopenblas-openmp-dev): its threads are the
# same OpenMP pool as Kokkos', so BLAS calls never oversubscribe the cores.
set(KT_HAVE_EIGEN OFF)
find_package(Eigen3 3.3 NO_MODULE QUIET)
if(TARGET Eigen3::Eigen)
  target_link_libraries(kt INTERFACE Eigen3::Eigen)
  target_compile_definitions(kt INTERFACE KT_ENABLE_EIGEN)
  set(KT_HAVE_EIGEN ON)
endif()

set(KT_HAVE_CBLAS OFF)
if(KT_ENABLE_BLAS)
  set(_kt_openblas_omp_lib "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp")
  set(_kt_openblas_omp_inc "/usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp")
  find_library(KT_CBLAS_LIBRARY NAMES openblas PATHS "${_kt_openblas_omp_lib}" NO_DEFAULT_PATH)
  find_path(KT_CBLAS_INCLUDE_DIR cblas.h PATHS "${_kt_openblas_omp_inc}" NO_DEFAULT_PATH)
  find_library(KT_CBLAS_LIBRARY NAMES openblas)  # no-ops when already found above
  find_path(KT_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas)
  if(KT_CBLAS_LIBRARY AND KT_CBLAS_INCLUDE_DIR)
    target_include_directories(kt SYSTEM INTERFACE "${KT_CBLAS_INCLUDE_DIR}")
    target_link_libraries(kt INTERFACE "${KT_CBLAS_LIBRARY}")
    target_compile_definitions(kt INTERFACE KT_ENABLE_CBLAS KT_CBLAS_IS_OPENBLAS)
    set(KT_HAVE_CBLAS ON)
  endif()
endif()
message(STATUS "kt host GEMM: Eigen ${KT_HAVE_EIGEN}, CBLAS ${KT_HAVE_CBLAS} (${KT_CBLAS_LIBRARY})")
