# Installs kt's headers, the kt::kt target and a ktConfig.cmake that finds Kokkos.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/kt" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS kt EXPORT ktTargets)
install(EXPORT ktTargets NAMESPACE kt:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt")

set(_kt_kokkos_cuda_note "")
if(Kokkos_ENABLE_CUDA)
  set(_kt_kokkos_cuda_note " with Cuda")
endif()
# kt::kt_compiled is built in the user's project, against the user's Kokkos, from these sources
# (ktConfig.cmake defines the target; cmake/ktCompiled.cmake).
set(KT_COMPILED_SOURCE_DIR "${CMAKE_INSTALL_DATADIR}/kt/compiled")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/src/compiled/" DESTINATION "${KT_COMPILED_SOURCE_DIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/ktConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ktConfig.cmake"
  INSTALL_DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt"
  PATH_VARS KT_COMPILED_SOURCE_DIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ktConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/ktConfig.cmake" "${PROJECT_BINARY_DIR}/ktConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ktFindCBLAS.cmake" "${PROJECT_SOURCE_DIR}/cmake/ktCompiled.cmake"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt")
