# kt::kt_compiled: the opt-in compiled instantiation library (kt/core/impl/compiled.hpp). kt
# stays header-only; a program that links kt::kt_compiled instead of kt::kt compiles against
# `extern template` declarations of kt's heaviest entry points (GEMM dispatch, fused Linear,
# reductions, modules, optimizers, data loaders; docs/integration.md lists them) and links their
# one compiled copy for kt's floating dtypes on every enabled device, built here against the
# same Kokkos. EXCLUDE_FROM_ALL: only built when linked.
#
# kt_add_compiled_library(NAME SOURCE_DIR MARCH) defines the library NAME (kt_compiled, aliased
# kt::kt_compiled) from the sources in SOURCE_DIR, compiled with the flags of the directory that
# calls it; kt's own build calls it with src/compiled, an installed kt's ktConfig.cmake with the
# installed copy of those sources, so a find_package(kt) user builds it against their Kokkos
# and with their flags.
# MARCH (KT_MARCH in kt's build: its examples and benchmarks are tuned for the building
# machine) is the -march of the library and of everything that links it; empty adds none.
# Flags must match between the library and its users: a template instantiated in both is one
# symbol, the linker keeps one copy, and copies built with other -O or -march levels contract
# multiply-adds differently, so kernels that kt keeps bit-identical (Serial vs OpenMP, the host
# vs the team GEMM kernel) would differ in their last bits. kt's tests, built at -O1, therefore
# get their own instance (tests/CMakeLists.txt).
function(kt_add_compiled_library name source_dir march)
  if(TARGET ${name})
    return()
  endif()
  add_library(${name} STATIC EXCLUDE_FROM_ALL
    "${source_dir}/gemm.cpp" "${source_dir}/linear.cpp" "${source_dir}/reduce.cpp"
    "${source_dir}/nn.cpp" "${source_dir}/optim.cpp" "${source_dir}/elementwise.cpp"
    "${source_dir}/autograd.cpp" "${source_dir}/tensor.cpp" "${source_dir}/io.cpp" "${source_dir}/data.cpp"
    "${source_dir}/loss.cpp" "${source_dir}/sampler.cpp" "${source_dir}/core.cpp")
  if(name STREQUAL "kt_compiled")
    add_library(kt::kt_compiled ALIAS kt_compiled)
  endif()
  target_link_libraries(${name} PUBLIC kt::kt)
  target_compile_definitions(${name} PUBLIC KT_COMPILED)
  if(march)
    target_compile_options(${name} PUBLIC -march=${march})
  endif()
  # DistributedDataParallel's instances need kt::dist's usage requirements (MPI, NCCL): its file
  # is compiled against them, and only programs that use it (and so link kt::dist) pull it in.
  if(TARGET kt::dist)
    add_library(${name}_dist OBJECT EXCLUDE_FROM_ALL "${source_dir}/ddp.cpp")
    target_link_libraries(${name}_dist PRIVATE kt::dist)
    target_compile_definitions(${name}_dist PRIVATE KT_COMPILED)
    if(march)
      target_compile_options(${name}_dist PRIVATE -march=${march})
    endif()
    target_sources(${name} PRIVATE $<TARGET_OBJECTS:${name}_dist>)
  endif()
  # ${name}_pch: kt/kt.hpp and kt's I/O precompiled once with the usage requirements of NAME,
  # which are the flags of what links it, for those programs to reuse
  # (kt_use_precompiled_headers). Host compilers only: nvcc reads no precompiled header.
  if(NOT Kokkos_ENABLE_CUDA)
    add_library(${name}_pch OBJECT EXCLUDE_FROM_ALL "${source_dir}/pch.cpp")
    target_link_libraries(${name}_pch PRIVATE ${name})
    target_precompile_headers(${name}_pch PRIVATE <kt/kt.hpp> <kt/io/checkpoint.hpp>)
  endif()
endfunction()

# kt_use_precompiled_headers(TARGET [LIBRARY]): TARGET's files start from the headers that
# LIBRARY (default kt_compiled) precompiled, instead of parsing Kokkos and kt again: about 3 s
# of a training program's compile (g++ 12). TARGET must link LIBRARY and add no flag that
# changes what the headers mean (a -D that kt or Kokkos tests, another -std or -march): g++
# then skips the header, with a -Winvalid-pch warning, and parses as before. Nothing under nvcc.
function(kt_use_precompiled_headers target)
  set(library kt_compiled)
  if(ARGC GREATER 1)
    set(library ${ARGV1})
  endif()
  if(TARGET ${library}_pch)
    target_precompile_headers(${target} REUSE_FROM ${library}_pch)
  endif()
endfunction()
