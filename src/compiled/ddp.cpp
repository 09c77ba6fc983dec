// kt_compiled: data parallelism of an fp32 or fp64 Sequential, with its gradient reducer
// (kt/dist/distributed_data_parallel.hpp). Only in a build with kt::dist, compiled with its
// usage requirements (MPI, NCCL): cmake/ktCompiled.cmake.
#define KT_COMPILED_DEFINES_DIST
#include "kt/dist/distributed_data_parallel.hpp"

KT_ETI_DIST(template)
