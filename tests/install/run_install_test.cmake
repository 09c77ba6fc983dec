# cmake -P script: install kt, configure + build + run tests/install/consumer against it.
file(REMOVE_RECURSE "${KT_WORK_DIR}")
set(prefix "${KT_WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: command failed (${rc}): ${ARGN}")
  endif()
endfunction()

run("${CMAKE_COMMAND}" --install "${KT_BUILD_DIR}" --prefix "${prefix}")
run("${CMAKE_COMMAND}" -S "${KT_CONSUMER_SOURCE}" -B "${KT_WORK_DIR}/build"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${KT_CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release)
run("${CMAKE_COMMAND}" --build "${KT_WORK_DIR}/build")
run("${KT_WORK_DIR}/build/consumer")
