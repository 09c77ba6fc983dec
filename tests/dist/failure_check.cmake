# cmake -DMPIEXEC="mpiexec;-n;2" -DPROBE=path -P failure_check.cmake: the job in which rank 1
# throws mid-backward must end within 30 s, fail, print rank 1's message, and leave no process.
string(TIMESTAMP start "%s")
execute_process(COMMAND ${MPIEXEC} "${PROBE}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 30)
string(TIMESTAMP end "%s")
math(EXPR seconds "${end} - ${start}")
message("${out}${err}")
message("exit status: ${status}; ${seconds} s")
if(status STREQUAL "0" OR status MATCHES "[Tt]ime")
  message(FATAL_ERROR "FAIL: the job did not fail promptly (status '${status}')")
endif()
if(NOT "${out}${err}" MATCHES "kt::dist: rank 1 of 2 failed: uncaught exception: injected failure on rank 1 during backward")
  message(FATAL_ERROR "FAIL: rank 1's message is missing from the output")
endif()
# Processes whose command line starts with the probe's path (not this script's cmake).
execute_process(COMMAND pgrep -f "^${PROBE}" RESULT_VARIABLE found OUTPUT_VARIABLE pids)
if(found EQUAL 0)
  message(FATAL_ERROR "FAIL: processes left running: ${pids}")
endif()
message("PASS: the whole job ended in ${seconds} s with rank 1's message")
