#pragma once
/// \file kt/dist/dist.hpp
/// kt::dist — data-parallel training on MPI (built with -DKT_ENABLE_MPI=ON; link kt::dist).
/// docs/distributed.md is the guide.

#include "kt/core/impl/public_begin.hpp"

#include "kt/dist/collectives.hpp"
#include "kt/dist/distributed_data_parallel.hpp"
#include "kt/dist/distributed_sampler.hpp"
#include "kt/dist/environment.hpp"
#include "kt/dist/failure.hpp"
#include "kt/dist/print.hpp"
#include "kt/dist/process_group.hpp"
#include "kt/dist/reduce_op.hpp"
#include "kt/dist/work.hpp"

#include "kt/core/impl/public_end.hpp"
