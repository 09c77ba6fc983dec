#pragma once
/// \file kt/kt.hpp
/// Everything kt offers, in one include.
///
///     #include <kt/kt.hpp>
///     int main(int argc, char* argv[]) {
///       kt::Runtime runtime(argc, argv);
///       auto x = kt::randn<float>({2, 3}, /*seed=*/0);   // on kt::DefaultDevice
///       std::cout << kt::sum(x * x) << "\n";
///     }

#include "kt/backend/gemm.hpp"
#include "kt/backend/tuning.hpp"
#include "kt/backend/tuning_stats.hpp"
#include "kt/core/device.hpp"
#include "kt/core/dispatch.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/memory.hpp"
#include "kt/core/profiling.hpp"
#include "kt/core/runtime.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/generator.hpp"
#include "kt/tensor/layout.hpp"
#include "kt/tensor/linear.hpp"
#include "kt/tensor/matmul.hpp"
#include "kt/tensor/print.hpp"
#include "kt/tensor/random.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/shape.hpp"
#include "kt/tensor/softmax.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"
#include "kt/tensor/unary.hpp"
#include "kt/autograd/ops.hpp"
#include "kt/functional/functional.hpp"
#include "kt/nn/nn.hpp"
#include "kt/data/csv.hpp"
#include "kt/data/dataloader.hpp"
#include "kt/data/dataloader_options.hpp"
#include "kt/data/dataset.hpp"
#include "kt/data/idx.hpp"
#include "kt/data/progress.hpp"
#include "kt/data/sampler.hpp"
#include "kt/data/subset.hpp"
#include "kt/data/tensor_dataset.hpp"
#include "kt/data/transform.hpp"
#include "kt/optim/adam.hpp"
#include "kt/optim/adamw.hpp"
#include "kt/optim/clip_grad.hpp"
#include "kt/optim/cosine_annealing_lr.hpp"
#include "kt/optim/linear_lr.hpp"
#include "kt/optim/lr_scheduler.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/optim/sgd.hpp"
#include "kt/optim/state.hpp"
#include "kt/optim/step_lr.hpp"
