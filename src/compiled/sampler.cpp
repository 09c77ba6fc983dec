// kt_compiled: DistributedSampler (kt/dist/distributed_sampler.hpp), which needs no MPI: kept
// apart from ddp.cpp, so that a program using it without kt::dist links without MPI.
#define KT_COMPILED_DEFINES_DIST
#include "kt/dist/distributed_sampler.hpp"
