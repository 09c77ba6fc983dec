# cmake -P script: what a user does with kt's source and their own Kokkos. Configures kt in a
# scratch tree (no tests, examples or benchmarks: header-only, so nothing to compile), installs
# it, deletes that tree, then configures, builds and runs tests/install/consumer against the
# install, finding Kokkos only through the consumer's Kokkos_DIR: the program header-only
# (kt::kt) and with kt::kt_compiled, which the installed config builds there from the installed
# sources, both asking for autocast (KT_AUTOCAST). The installed package must not name the
# deleted tree, and without Kokkos-Cuda it must not require CUDA.
file(REMOVE_RECURSE "${KT_WORK_DIR}")
set(prefix "${KT_WORK_DIR}/prefix")
set(kt_build "${KT_WORK_DIR}/kt-build")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: command failed (${rc}): ${ARGN}")
  endif()
endfunction()

run("${CMAKE_COMMAND}" -S "${KT_SOURCE_DIR}" -B "${kt_build}" -DKokkos_DIR=${KT_KOKKOS_DIR}
    -DCMAKE_CXX_COMPILER=${KT_CXX_COMPILER} -DKT_ENABLE_TESTS=OFF -DKT_ENABLE_EXAMPLES=OFF -DKT_ENABLE_BENCHMARKS=OFF)
run("${CMAKE_COMMAND}" --install "${kt_build}" --prefix "${prefix}")
file(REMOVE_RECURSE "${kt_build}")

file(GLOB_RECURSE config_files "${prefix}/*.cmake")
foreach(file ${config_files})
  file(READ "${file}" text)
  string(FIND "${text}" "${kt_build}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "install test: ${file} names the deleted build tree ${kt_build}")
  endif()
endforeach()
file(GLOB_RECURSE adapters "${prefix}/*/ktCudaAdaptersTargets.cmake")
if(adapters AND NOT KT_KOKKOS_CUDA)
  message(FATAL_ERROR "install test: a host-only install installed the CUDA adapters (${adapters})")
endif()

run("${CMAKE_COMMAND}" -S "${KT_CONSUMER_SOURCE}" -B "${KT_WORK_DIR}/build" -DCMAKE_PREFIX_PATH=${prefix}
    -DKokkos_DIR=${KT_KOKKOS_DIR} -DCMAKE_CXX_COMPILER=${KT_CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
    # -O0: the test checks the package, not speed, and kt::kt_compiled builds fastest so.
    "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG")
run("${CMAKE_COMMAND}" --build "${KT_WORK_DIR}/build" -j 2)
run("${KT_WORK_DIR}/build/consumer")
run("${KT_WORK_DIR}/build/consumer_compiled")
