// kt_require_gpu COMMAND ARGS...: runs COMMAND when a GPU is present, else prints "skipped: no
// GPU" and exits with 77 (ctest's SKIP_RETURN_CODE). The Cuda build's example tests run
// through it, so a machine without a GPU reports them skipped instead of failing or passing.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <unistd.h>

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no GPU for %s\n", argc > 1 ? argv[1] : "(nothing)");
    return 77;
  }
  if (argc < 2) return 0;
  execv(argv[1], argv + 1);
  std::perror("kt_require_gpu: execv");
  return 1;
}
