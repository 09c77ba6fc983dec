// Must not compile: a module of one's own without forward(). Fixed: define it.
#include <kt/kt.hpp>

struct Net : kt::nn::Module<float, kt::Serial> {
#if defined(KT_COMPILE_FAIL_FIXED)
  kt::Var<float, kt::Serial> forward(const kt::Var<float, kt::Serial>& x) override { return x; }
#endif
};

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  Net net;
  return net(kt::ones<float, kt::Serial>({2})).numel() == 2 ? 0 : 1;
}
