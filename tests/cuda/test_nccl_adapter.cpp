// kt's NCCL adapter (kt/dist/nccl/): a one-rank communicator on the GPU. Without a GPU the
// adapter must turn NCCL's failure into a kt::Error (checked, and the test passes); with one,
// all_reduce (sum, avg), broadcast, all_gather and reduce_scatter on one rank give their
// input back, checked element by element. Non-zero exit on any failure.
#include <kt/dist/nccl/nccl_communicator.hpp>

#include "check.hpp"

#include <cstdio>
#include <string>
#include <vector>

using kt_cuda_test::check;

int main() {
  check(kt::dist::nccl::data_type<float>() == ncclFloat32 && kt::dist::nccl::data_type<std::int64_t>() == ncclInt64,
        "data types");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    try {
      kt::dist::nccl::Communicator nccl(1, kt::dist::nccl::Communicator::unique_id(), 0);
      check(false, "a communicator without a GPU must throw kt::Error");
    } catch (const kt::Error& e) {
      check(std::string(e.message()).find("kt::nccl:") != std::string::npos, "the error names NCCL");
      std::printf("no GPU: %s\n", e.message().c_str());
    }
    return kt_cuda_test::summary();
  }
  kt::dist::nccl::Communicator nccl(1, kt::dist::nccl::Communicator::unique_id(), 0);
  const std::size_t n = 1000;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17) - 3.0f;
  float *a = nullptr, *b = nullptr;
  KT_CUDA_CHECK(cudaMalloc(&a, n * sizeof(float)));
  KT_CUDA_CHECK(cudaMalloc(&b, n * sizeof(float)));
  cudaStream_t stream;
  KT_CUDA_CHECK(cudaStreamCreate(&stream));
  auto round_trip = [&](const std::string& what, auto op) {
    KT_CUDA_CHECK(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    KT_CUDA_CHECK(cudaMemset(b, 0, n * sizeof(float)));
    op();
    KT_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> got(n);
    KT_CUDA_CHECK(cudaMemcpy(got.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
    check(got == host, what + " on one rank gives the input back");
  };
  round_trip("all_reduce sum", [&] { nccl.all_reduce(a, b, n, ncclFloat32, ncclSum, stream); });
  round_trip("all_reduce avg", [&] { nccl.all_reduce(a, b, n, ncclFloat32, ncclAvg, stream); });
  round_trip("broadcast", [&] { nccl.broadcast(a, b, n, ncclFloat32, 0, stream); });
  round_trip("all_gather", [&] { nccl.all_gather(a, b, n, ncclFloat32, stream); });
  round_trip("reduce_scatter", [&] { nccl.reduce_scatter(a, b, n, ncclFloat32, ncclSum, stream); });
  cudaStreamDestroy(stream);
  cudaFree(a);
  cudaFree(b);
  return kt_cuda_test::summary();
}
