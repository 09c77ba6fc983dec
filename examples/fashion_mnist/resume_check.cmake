# `cmake -DPROGRAM=fashion_mnist -DDATA=dir -DDIR=scratch [-DLAUNCHER=kt_require_gpu] -P resume_check.cmake`:
# the exact-resume check. Trains 2 epochs in one go, and 1 epoch + save + a fresh process
# that resumes for the second; the two final checkpoints (parameters, Adam's state, loader
# epoch) must be byte-identical. On 3,000 images, with the same 2 threads in every run.
include("${CMAKE_CURRENT_LIST_DIR}/../../tests/script_args.cmake")
kt_require_script_args(resume_check.cmake PROGRAM DATA DIR)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")

function(train epochs)
  execute_process(COMMAND ${LAUNCHER} "${PROGRAM}" --epochs ${epochs} --limit 3000 --threads 2 --data "${DATA}"
                          --summary none ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 77)
    message("skipped: no GPU")  # the Cuda build's launcher found none
    set(skipped ON PARENT_SCOPE)
    return()
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fashion_mnist --epochs ${epochs} ${ARGN} failed (${rc}):\n${out}")
  endif()
  message("${out}")
  set(output "${out}" PARENT_SCOPE)
endfunction()

train(2 --save "${DIR}/straight.safetensors")
if(skipped)
  return()
endif()
train(1 --save "${DIR}/first.safetensors")
train(2 --resume "${DIR}/first.safetensors" --save "${DIR}/resumed.safetensors")
# The resumed process trained epoch 2 only (were --resume ignored, it would redo both).
if(NOT output MATCHES "resumed from [^\n]*after epoch 1" OR output MATCHES "epoch  1/2" OR NOT output MATCHES "epoch  2/2")
  message(FATAL_ERROR "the resumed process did not train exactly epoch 2")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DIR}/straight.safetensors" "${DIR}/first.safetensors"
                RESULT_VARIABLE differ)
if(differ EQUAL 0)
  message(FATAL_ERROR "the 1-epoch checkpoint equals the 2-epoch one: the check could not fail")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DIR}/straight.safetensors" "${DIR}/resumed.safetensors"
                RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "resumed run differs from the straight 2-epoch run: compare ${DIR}/straight.safetensors "
                      "and ${DIR}/resumed.safetensors")
endif()
message("PASS: 1 epoch + save + resume in a fresh process = 2 epochs in one go, byte for byte")
