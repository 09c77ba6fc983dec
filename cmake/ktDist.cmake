# kt::dist (include/kt/dist/): data-parallel training on MPI. KT_ENABLE_MPI defaults to ON when
# CMake finds an MPI (Debian: libopenmpi-dev, which scripts/setup.sh installs) and OFF
# otherwise, so configuring never fails for lack of MPI; switched ON without one, it stops.
# Programs that use kt::dist link kt::dist (kt::kt + MPI); the rest of kt does not need MPI.
# In a Cuda build with NCCL (shipped with the CUDA toolkit) kt::dist also links NCCL and defines
# KT_DIST_HAS_NCCL: kt/dist/nccl/ then all-reduces device tensors GPU to GPU.

# kt calls MPI's C API from C++ (MPI's deprecated C++ bindings are not linked).
set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "kt uses MPI's C API only")
if(NOT DEFINED CACHE{KT_ENABLE_MPI})
  find_package(MPI QUIET COMPONENTS CXX)
endif()
option(KT_ENABLE_MPI "Build kt::dist (MPI data-parallel training), its tests and the --distributed example" ${MPI_CXX_FOUND})
if(NOT KT_ENABLE_MPI)
  return()
endif()
find_package(MPI COMPONENTS CXX)
if(NOT MPI_CXX_FOUND)
  message(FATAL_ERROR "kt: KT_ENABLE_MPI is ON but no MPI was found (Debian: apt-get install libopenmpi-dev "
    "openmpi-bin; or pass -DKT_ENABLE_MPI=OFF)")
endif()

add_library(kt_dist INTERFACE)
add_library(kt::dist ALIAS kt_dist)
set_target_properties(kt_dist PROPERTIES EXPORT_NAME dist)
target_link_libraries(kt_dist INTERFACE kt::kt MPI::MPI_CXX)
target_compile_definitions(kt_dist INTERFACE KT_ENABLE_MPI)

if(Kokkos_ENABLE_CUDA)
  find_path(KT_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(KT_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR})
  if(KT_NCCL_INCLUDE_DIR AND KT_NCCL_LIBRARY)
    target_include_directories(kt_dist INTERFACE "${KT_NCCL_INCLUDE_DIR}")
    target_link_libraries(kt_dist INTERFACE "${KT_NCCL_LIBRARY}")
    target_compile_definitions(kt_dist INTERFACE KT_DIST_HAS_NCCL)
    message(STATUS "kt: kt::dist uses NCCL (${KT_NCCL_LIBRARY}) for device tensors")
  else()
    message(STATUS "kt: no NCCL found: kt::dist stages device tensors through pinned host memory")
  endif()
endif()

install(TARGETS kt_dist EXPORT ktDistTargets)
install(EXPORT ktDistTargets NAMESPACE kt:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt")
message(STATUS "kt: kt::dist enabled (MPI ${MPI_CXX_VERSION}, ${MPIEXEC_EXECUTABLE})")

# How kt's own tests and examples run 2 ranks (tests/dist, examples): as root in CI containers,
# oversubscribed on 2 cores, shared memory without ptrace rights, one passive OpenMP thread each.
set(KT_MPI_TEST_RANKS 2)
set(KT_MPI_TEST_ENV
  "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  "OMPI_MCA_btl_vader_single_copy_mechanism=none;OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_PLACES=threads"
  "OMP_WAIT_POLICY=passive")
set(KT_MPIEXEC ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${KT_MPI_TEST_RANKS} ${MPIEXEC_PREFLAGS})
