// The kt side of every snippet in docs/devices.md, compiled and run by ctest ("docs: the
// snippets of devices.md run", "docs: devices.md shows the snippets of docs/snippets/devices.cpp").
// A region between two `// [name]` lines is what devices.md shows under
// `<!-- snippet: name -->`, without the indentation of its marker line; edit here, then copy
// into devices.md (the second test fails until the two agree).

#include <kt/interop/eigen.hpp>
#include <kt/kt.hpp>

#include "run_page.hpp"

#if __has_include(<dlpack/dlpack.h>)
#include <kt/interop/dlpack.hpp>
#define KT_DOC_DLPACK 1
#endif

// The raw CUDA adapters build wherever the CUDA toolkit is (kt::cuda_adapters); their snippet
// runs where a GPU is.
#if defined(KT_DOC_CUDA_ADAPTERS)
#include <kt/backend/cuda/cublas_handle.hpp>
#include <kt/backend/cuda/cuda_pinned.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <type_traits>
#include <vector>

namespace runtime_example {
// [runtime_main]
int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);   // reads and removes --kokkos-threads=N, --kokkos-device-id=K
  // ... the program
  return 0;
}
// [runtime_main]
}  // namespace runtime_example

namespace {

void devices_as_values() {
  // [devices_as_values]
  using D = kt::DefaultDevice;
  auto x = kt::zeros<float, D>({2, 3});
  kt::DeviceId where = x.device();                           // x.device: "openmp", "cuda:0"
  std::cout << where << " " << kt::device_id<kt::Host>() << "\n";
  using Space = kt::memory_space_t<D>;                       // Kokkos::HostSpace, Kokkos::CudaSpace
  static_assert(kt::is_host_accessible_v<kt::Host>);         // the host reads its memory directly
  std::cout << kt::dtype_name<kt::bfloat16>() << "\n";       // "bfloat16": torch.bfloat16
  static_assert(kt::dtype_traits<kt::half>::is_floating);
  static_assert(std::is_same_v<kt::compute_t<kt::half>, float>);   // 16-bit dtypes compute in fp32
  // [devices_as_values]
  static_assert(std::is_same_v<Space, typename D::memory_space>);
  KT_REQUIRE(where == kt::device_id<D>(), "devices: x.device() is ", where, ", not ", kt::device_id<D>());
  KT_REQUIRE(std::string(kt::dtype_name<float>()) == "float32", "devices: dtype_name<float>() is ",
             kt::dtype_name<float>());
}

void moving_data() {
  // [moving_data]
  using Device = kt::DefaultDevice;
  auto x = kt::randn<float, kt::Host>({4, 3}, /*seed=*/0);   // on the host
  auto xd = x.to<Device>();                                   // x.to(device)
  auto y = kt::relu(2.0f * xd);                               // runs on Device
  auto yh = y.host();                                         // y.cpu()
  float first = yh.to_vector()[0];
  // [moving_data]
  const float expected = std::max(0.0f, 2.0f * x.to_vector()[0]);
  KT_REQUIRE(first == expected, "devices: relu(2x)[0] is ", first, ", not ", expected);
}

void async_copies() {
  // [async_copies]
  using D = kt::DefaultDevice;
  D exec;                                      // Kokkos::Cuda exec(stream) for your own stream
  auto staging = kt::randn<float, kt::Host>({256, 784}, /*seed=*/0);
  auto w = kt::randn<float, D>({784, 10}, /*seed=*/1);
  auto batch = kt::empty<float, D>({256, 784});
  kt::copy(exec, batch, staging);              // queued on exec
  auto logits = kt::matmul(exec, batch, w);    // same instance: runs after the copy
  auto moved = staging.to<D>(exec);            // a new tensor, filled on exec
  exec.fence();                                // wait before reusing staging or reading elsewhere
  // [async_copies]
  const float difference = kt::max(kt::abs(logits - kt::matmul(moved, w))).item();
  KT_REQUIRE(difference < 1e-4f, "devices: the product of the asynchronous copy differs by ", difference);
}

#if defined(KT_DOC_DLPACK)
void dlpack() {
  auto x = kt::randn<float, kt::DefaultDevice>({64, 784}, /*seed=*/0);
  // [dlpack]
  DLManagedTensor* m = kt::to_dlpack(x);                // any kt::Tensor<T, D>
  auto y = kt::from_dlpack<float, kt::DefaultDevice>(m);  // y.data() == x.data()
  // [dlpack]
  KT_REQUIRE(y.data() == x.data(), "devices: from_dlpack(to_dlpack(x)) does not share x's memory");
}
#endif

void eigen() {
  // [eigen]
  auto a = kt::randn<float, kt::Host>({3, 4}, /*seed=*/0);
  kt::EigenMap<float> m = kt::as_eigen(a);              // Eigen::Map over a's memory: no copy
  m(0, 0) = 1.0f;                                       // a[0][0] is now 1
  Eigen::MatrixXf gram = m * m.transpose();             // any Eigen expression on kt data

  kt::EigenMatrix<double> e = kt::EigenMatrix<double>::Zero(2, 3);   // row-major, as kt tensors
  auto t = kt::from_eigen(e);                           // Tensor<double, kt::Host> (2, 3) over e's memory
  t.fill_(2.0);                                         // e is all 2 now
  // [eigen]
  KT_REQUIRE(a.to_vector()[0] == 1.0f, "devices: a write through as_eigen did not reach the tensor");
  KT_REQUIRE(gram.rows() == 3 && gram.cols() == 3, "devices: the Gram matrix is ", gram.rows(), " x ", gram.cols());
  KT_REQUIRE(e.sum() == 12.0, "devices: fill_ on from_eigen's tensor gave a sum of ", e.sum());
}

void memory_statistics() {
  // [memory_stats]
  auto s = kt::memory_stats<kt::DefaultDevice>();   // kt::MemoryStats
  std::cout << s.allocated << " B in tensors, " << s.reserved << " B held, peak "
            << s.peak_allocated << " B, " << s.num_cache_hits << " cache hits\n";
  kt::empty_cache<kt::DefaultDevice>();             // return cached blocks to the system
  kt::reset_peak_memory_stats<kt::DefaultDevice>();
  // [memory_stats]
  const auto after = kt::memory_stats<kt::DefaultDevice>();
  KT_REQUIRE(after.peak_allocated == after.allocated, "devices: the peak after the reset is ", after.peak_allocated,
             " B, with ", after.allocated, " B allocated");
}

void runtime_options() {
  // Kokkos already runs here (main started it): options it does not run with are refused,
  // saying why (8 threads on this machine's OpenMP, GPU 1 where there is a GPU).
  std::string refused;
  try {
    // [runtime_options]
    kt::Runtime runtime(kt::RuntimeOptions().threads(8).device_id(1));   // the same in code
    // [runtime_options]
    KT_REQUIRE(!runtime.owns_kokkos(), "devices: a second kt::Runtime started Kokkos again");
  } catch (const kt::Error& e) {
    refused = e.message();
  }
  KT_REQUIRE(refused.empty() || refused.find("cannot take effect") != std::string::npos,
             "devices: a Runtime asking for 8 threads and GPU 1 on a running Kokkos gave '", refused, "'");
}

void profiling() {
  // [profiler]
  using D = kt::DefaultDevice;
  kt::Profiler profiler(kt::ProfilerOptions().max_trace_events(100));   // the Chrome trace keeps 100 events
  for (int step = 0; step < 50; ++step) {
    auto y = kt::relu(kt::randn<float, D>({256, 256}, step));
  }
  profiler.stop();
  for (const kt::ProfileRow& row : profiler.key_averages(kt::ProfileSort::Self))   // prof.key_averages()
    if (row.kind == "kernel")                                // or "region", "copy", "fence"
      std::cout << row.name << " on " << row.device << ": " << row.count << " x " << row.avg_us << " us\n";
  std::cout << profiler.trace_event_count() << " events traced, "   // 100
            << profiler.dropped_event_count() << " more counted only\n";
  // [profiler]
  bool kernel_row = false;
  for (const auto& row : profiler.key_averages())
    kernel_row = kernel_row || (row.kind == "kernel" && row.device == kt::device_name<D>() && row.count >= 50);
  KT_REQUIRE(kernel_row, "devices: the profiler has no kernel row of ", kt::device_name<D>(), " with 50 calls");
  KT_REQUIRE(profiler.trace_event_count() == 100 && profiler.dropped_event_count() > 0, "devices: ",
             profiler.trace_event_count(), " events traced, ", profiler.dropped_event_count(), " dropped");
}

}  // namespace

// Outside the anonymous namespace: nvcc wants an extended lambda's enclosing function to
// have external linkage (kt::gemm launches kernels of its own; the custom kernel is a lambda).
void raw_gemm() {
  // [gemm]
  using D = kt::DefaultDevice;
  auto x = kt::randn<float, D>({64, 256}, 0);
  auto w = kt::randn<float, D>({128, 256}, 1);
  auto y = kt::empty<float, D>({64, 128});
  kt::GemmProblem<float> p;                    // y = x wᵀ over raw pointers in D's memory, row-major
  p.m = 64; p.n = 128; p.k = 256;
  p.a = x.data(); p.lda = 256;
  p.b = w.data(); p.ldb = 256; p.trans_b = kt::Transpose::Yes;
  p.c = y.data(); p.ldc = 128;
  kt::gemm(D(), p, kt::GemmOptions().backend(kt::GemmBackend::Kokkos));   // Auto (default): kt chooses
  std::cout << p.flops() / 1e6 << " MFLOP\n";

  kt::tuning::set_benchmark(true);             // time the back-ends once per shape
  auto z = kt::matmul(x, w, kt::MatmulOptions().transpose_b(true));   // the same product, tuned
  for (const kt::tuning::Entry& e : kt::tuning::entries())
    std::cout << e.key << ": " << e.backend << " on " << e.threads << " threads, " << e.seconds * 1e6 << " us\n";
  kt::tuning::Stats s = kt::tuning::stats();   // s.tuned, s.kokkos_calls, s.blas_calls, s.blas_core, ...
  // [gemm]
  kt::tuning::set_benchmark(false);
  KT_REQUIRE(s.tuned == 1 && s.kokkos_calls >= 1, "devices: ", s.tuned, " problems tuned, ", s.kokkos_calls,
             " Kokkos GEMMs");
  const float difference = kt::max(kt::abs(y - z)).item();
  KT_REQUIRE(difference < 1e-3f, "devices: kt::gemm and kt::matmul differ by ", difference);
}

#if defined(KT_DOC_CUDA_ADAPTERS)
void cuda_adapters() {
  const std::size_t n = 1 << 16;
  // [cuda_adapters]
  kt::cuda::PinnedBuffer<float> staging(n);           // cudaMallocHost: page-locked host memory
  std::fill(staging.begin(), staging.end(), 1.0f);
  float* device = nullptr;
  KT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&device), staging.bytes()));
  cudaStream_t stream = nullptr;
  KT_CUDA_CHECK(cudaStreamCreate(&stream));
  kt::cuda::copy_async(device, staging.data(), staging.size(), stream);   // returns at once
  cublasHandle_t handle = kt::cuda::cublas_handle(stream);   // this thread's handle, bound to stream
  float sum = 0;
  KT_CUBLAS_CHECK(cublasSasum(handle, static_cast<int>(n), device, 1, &sum));   // after the copy
  KT_CUDA_CHECK(cudaStreamSynchronize(stream));       // before staging is refilled or freed
  staging.reset();                                    // cudaFreeHost now
  kt::cuda::release_cublas_handles();                 // this thread's handles (before cudaDeviceReset)
  KT_CUDA_CHECK(cudaStreamDestroy(stream));
  KT_CUDA_CHECK(cudaFree(device));
  // [cuda_adapters]
  KT_REQUIRE(sum == static_cast<float>(n), "devices: cuBLAS summed the pinned copy to ", sum);
}
#endif

void row_norms() {
  // [row_norms]
  auto x = kt::randn<float, kt::DefaultDevice>({256, 100}, /*seed=*/3);
  auto norms = kt::empty<float, kt::DefaultDevice>({256});
  const auto xv = x.view<2>();
  const auto nv = norms.view<1>();
  Kokkos::parallel_for("my_app::row_sums", Kokkos::RangePolicy<kt::DefaultDevice>(0, 256),
                       KOKKOS_LAMBDA(int i) {
                         float s = 0;
                         for (int j = 0; j < 100; ++j) s += xv(i, j) * xv(i, j);
                         nv(i) = s;
                       });
  // [row_norms]
  const float difference = kt::max(kt::abs(norms - kt::sum(x * x, 1))).item();
  KT_REQUIRE(difference < 1e-3f, "devices: the custom kernel and kt ops differ by ", difference);
}

int main(int argc, char* argv[]) {
  return kt_docs::run_page(argc, argv, "devices.md", [&] {
    runtime_example::main(argc, argv);   // its Runtime finds Kokkos started and leaves it alone
    devices_as_values();
    moving_data();
    async_copies();
#if defined(KT_DOC_DLPACK)
    dlpack();
#endif
    eigen();
    memory_statistics();
    runtime_options();
    raw_gemm();
    profiling();
#if defined(KT_DOC_CUDA_ADAPTERS)
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 0) cuda_adapters();
    else (void)cudaGetLastError();
#endif
    row_norms();
  });
}
