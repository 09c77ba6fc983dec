# Host GEMM libraries for kt::kt: a CBLAS library and Eigen (header-only), each optional.
set(KT_HAVE_CBLAS OFF)
if(KT_ENABLE_BLAS)
  include("${CMAKE_CURRENT_LIST_DIR}/ktFindCBLAS.cmake")
  if(TARGET kt::cblas)
    target_link_libraries(kt INTERFACE kt::cblas)
    set(KT_HAVE_CBLAS ON)
  endif()
endif()

# Eigen's GEMM is a back-end only where KT_ENABLE_EIGEN is defined: without a CBLAS library
# (where it is the host's library), or with KT_EIGEN_GEMM (CMakeLists.txt says why not always).
# Eigen itself stays on kt::kt's include path either way, for kt/interop/eigen.hpp.
set(KT_HAVE_EIGEN OFF)
set(KT_HAVE_EIGEN_GEMM OFF)
find_package(Eigen3 3.3 NO_MODULE QUIET)
if(TARGET Eigen3::Eigen)
  target_link_libraries(kt INTERFACE Eigen3::Eigen)
  set(KT_HAVE_EIGEN ON)
  if(NOT KT_HAVE_CBLAS)
    target_compile_definitions(kt INTERFACE KT_ENABLE_EIGEN)
    set(KT_HAVE_EIGEN_GEMM ON)
  elseif(KT_EIGEN_GEMM)
    # A target of this tree with the property KT_NO_EIGEN_GEMM set is built without it: a
    # header-only program whose products go to the CBLAS library (kt's example); never one
    # that links kt_compiled, which is built with it.
    target_compile_definitions(kt INTERFACE
      $<BUILD_INTERFACE:$<$<NOT:$<BOOL:$<TARGET_PROPERTY:KT_NO_EIGEN_GEMM>>>:KT_ENABLE_EIGEN>>
      $<INSTALL_INTERFACE:KT_ENABLE_EIGEN>)
    set(KT_HAVE_EIGEN_GEMM ON)
  endif()
endif()
message(STATUS "kt host GEMM: CBLAS ${KT_HAVE_CBLAS} (${KT_CBLAS_LIBRARY}), Eigen's GEMM ${KT_HAVE_EIGEN_GEMM}")
