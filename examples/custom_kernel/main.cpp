// examples/custom_kernel: your own Kokkos kernels on kt tensors (what a custom CUDA kernel
// is to PyTorch). A tensor hands out unmanaged Kokkos Views of its memory; capture the
// Views in KOKKOS_LAMBDA — never the Tensor itself — and run on the tensor's device.
//
// Two kernels on kt::DefaultDevice, each checked against the same result from kt's own ops:
//   1. the L2 norm of every row:      norms(i) = sqrt(sum_j x(i, j)^2)
//   2. a 3-point vertical stencil:    s(i, j) = x(i-1, j) - 2 x(i, j) + x(i+1, j)

#include <kt/kt.hpp>

#include <iostream>

// Kokkos 4 moved the math functions from Kokkos::Experimental to Kokkos.
KOKKOS_INLINE_FUNCTION float device_sqrt(float v) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::sqrt(v);
#else
  return Kokkos::Experimental::sqrt(v);
#endif
}

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  const int rows = 256, cols = 100;
  auto x = kt::randn<float, D>({rows, cols}, /*seed=*/3);

  // 1. Per-row norm: one thread per row, a plain loop over the columns.
  auto norms = kt::empty<float, D>({rows});
  {
    kt::ScopedRegion region("custom_kernel::row_norms");  // shows up in Kokkos Tools
    const auto xv = x.view<2>();     // Kokkos::View<float**, LayoutRight, memory of D>
    const auto nv = norms.view<1>();  // Kokkos::View<float*>
    Kokkos::parallel_for(
        "custom_kernel::row_norms", Kokkos::RangePolicy<D>(0, rows), KOKKOS_LAMBDA(int i) {
          float s = 0;
          for (int j = 0; j < cols; ++j) s += xv(i, j) * xv(i, j);
          nv(i) = device_sqrt(s);
        });
  }
  // The same with kt ops: sqrt(sum(x * x, dim=1)). kt ops on D wait for earlier work on D.
  auto reference = kt::sqrt(kt::sum(x * x, 1));
  const float norm_error = kt::max(kt::abs(norms - reference)).item();

  // 2. Stencil on the interior rows, over a 2-D index range.
  auto s = kt::zeros<float, D>({rows, cols});
  {
    const auto xv = x.view<2>();
    const auto sv = s.view<2>();
    Kokkos::parallel_for(
        "custom_kernel::stencil",
        Kokkos::MDRangePolicy<D, Kokkos::Rank<2>>({1, 0}, {rows - 1, cols}),
        KOKKOS_LAMBDA(int i, int j) { sv(i, j) = xv(i - 1, j) - 2 * xv(i, j) + xv(i + 1, j); });
  }
  // With kt ops: shifted row slices (views, no copies) combined elementwise.
  auto stencil_reference = x.slice(0, rows - 2) - 2.0f * x.slice(1, rows - 1) + x.slice(2, rows);
  const float stencil_error = kt::max(kt::abs(s.slice(1, rows - 1) - stencil_reference)).item();

  std::cout << "x: " << rows << " x " << cols << " float32 on " << kt::device_name<D>() << "\n"
            << "norms of the first 4 rows, custom kernel:\n" << norms.slice(0, 4) << "\n"
            << "the same with kt::sqrt(kt::sum(x * x, 1)):\n" << reference.slice(0, 4) << "\n"
            << "max |custom - kt|: row norms " << norm_error << ", stencil " << stencil_error
            << "\n";
  if (!(norm_error <= 1e-4f && stencil_error <= 1e-5f)) {
    std::cout << "MISMATCH between the custom kernels and kt ops\n";
    return 1;
  }
  std::cout << "custom kernel matches kt ops\n";
  return 0;
}
