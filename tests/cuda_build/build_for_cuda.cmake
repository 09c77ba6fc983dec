# cmake -DSOURCE=... -DBINARY=... -DKOKKOS_ROOT=... [-DTARGETS=target] [-DHOST_OPT=-O0] -P
# build_for_cuda.cmake: configures kt with Kokkos-Cuda (nvcc_wrapper as the C++ compiler) and
# builds TARGETS (every target when empty or "all"), two jobs at a time. Prints the configure
# and build output; fails on the first error.
include("${CMAKE_CURRENT_LIST_DIR}/../script_args.cmake")
kt_require_script_args(build_for_cuda.cmake SOURCE BINARY KOKKOS_ROOT)
# nvcc's -O is the host compiler's level; device code is optimised whatever it is. -O1 (the
# default) for a build whose programs run: this check never times them, and nvcc's host compile
# of a benchmark or example takes ~30% less than at -O3 (bench_train.cpp: 104 -> 71 s). -O0 for
# a compile check that runs nothing (reduce.cpp of kt_compiled: 57 -> 32 s). No -march either,
# so the tests and the rest share one kt_compiled (tests/CMakeLists.txt).
if(NOT HOST_OPT)
  set(HOST_OPT -O1)
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS_RELEASE=${HOST_OPT} -DNDEBUG" -DKT_MARCH=
    "-DKokkos_ROOT=${KOKKOS_ROOT}" "-DCMAKE_CXX_COMPILER=${KOKKOS_ROOT}/bin/nvcc_wrapper"
    -DKT_ENABLE_TESTS=ON -DKT_ENABLE_EXAMPLES=ON -DKT_ENABLE_BENCHMARKS=ON -DKT_USE_COMPILED=ON
    "-DKT_FASHION_MNIST_DIR=${FASHION_MNIST}"
  RESULT_VARIABLE configured)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring the Cuda build failed (${configured})")
endif()
set(target_args)
if(TARGETS AND NOT TARGETS STREQUAL "all")
  set(target_args --target ${TARGETS})
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" -j 2 ${target_args} RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "building the Cuda build failed (${built})")
endif()
message(STATUS "the Cuda build (${TARGETS}) is complete in ${BINARY}")
