# kt::kt_compiled: the opt-in compiled instantiation library (kt/core/impl/compiled.hpp). kt
# stays header-only; a program that links kt::kt_compiled instead of kt::kt compiles against
# `extern template` declarations of kt's heaviest entry points (GEMM dispatch, fused Linear,
# reductions) and links their one compiled copy for kt's floating dtypes on every enabled
# device, built here against the same Kokkos. EXCLUDE_FROM_ALL: only built when linked.
#
# kt_add_compiled_library(SOURCE_DIR MARCH) defines it from the sources in SOURCE_DIR; kt's
# own build calls it with src/compiled, an installed kt's ktConfig.cmake with the installed
# copy of those sources, so a find_package(kt) user builds it against their Kokkos and flags.
# MARCH (KT_MARCH in kt's build: its examples and benchmarks are tuned for the building
# machine) is the -march of the library's kernels; empty adds none.
function(kt_add_compiled_library source_dir march)
  if(TARGET kt_compiled)
    return()
  endif()
  add_library(kt_compiled STATIC EXCLUDE_FROM_ALL
    "${source_dir}/gemm.cpp" "${source_dir}/linear.cpp" "${source_dir}/reduce.cpp"
    "${source_dir}/nn.cpp" "${source_dir}/optim.cpp")
  add_library(kt::kt_compiled ALIAS kt_compiled)
  target_link_libraries(kt_compiled PUBLIC kt::kt)
  target_compile_definitions(kt_compiled PUBLIC KT_COMPILED)
  if(march)
    target_compile_options(kt_compiled PRIVATE -march=${march})
  endif()
endfunction()
