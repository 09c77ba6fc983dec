# include() from a `cmake -P` script: kt_require_script_args(<script name> VAR...) stops with
# a message naming the first -DVAR= that is missing.
function(kt_require_script_args script)
  foreach(var ${ARGN})
    if(NOT ${var})
      message(FATAL_ERROR "${script}: -D${var}= is missing")
    endif()
  endforeach()
endfunction()
