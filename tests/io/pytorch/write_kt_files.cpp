// Writes kt's side of the PyTorch interop check into the folder given as argument:
// kt_mlp.safetensors (kt::io::save of the MLP PyTorch builds in check_kt_files.py),
// kt_mlp_io.safetensors (inputs x and kt's outputs y), and kt_run.safetensors (a
// kt::io::Checkpoint after 3 Adam steps: model.* and optimizer.state.* with PyTorch's keys),
// and kt_run_next.safetensors (the step's data and kt's parameters after a 4th step).

#include "io/pytorch_mlp.hpp"

#include <kt/io/checkpoint.hpp>
#include <kt/kt.hpp>

#include <iostream>
#include <string>

int main(int argc, char* argv[]) {
  if (argc != 2) {
    std::cerr << "usage: write_kt_files DIR\n";
    return 2;
  }
  kt::Runtime runtime(argc, argv);
  try {
    const std::string dir = argv[1];
    using D = kt::Host;
    auto model = kt_test::pytorch_mlp<float, D>(7);
    const auto x = kt::randn<float, D>({6, 4}, 3);
    kt::io::NamedTensors io;
    {
      kt::NoGradGuard no_grad;
      io.add("x", x).add("y", model(x).data());
    }
    kt::io::save(model, dir + "/kt_mlp.safetensors");
    kt::io::save_safetensors(dir + "/kt_mlp_io.safetensors", io);

    kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-2));
    const auto target = kt::randn<float, D>({6, 3}, 4);
    for (int step = 0; step < 3; ++step) {
      opt.zero_grad();
      kt::mse_loss(model(x), target).backward();
      opt.step();
    }
    kt::io::Checkpoint().add("model", model).add("optimizer", opt).save(dir + "/kt_run.safetensors");
    // One more step, for PyTorch to repeat from the checkpoint: the data and kt's result.
    opt.zero_grad();
    kt::mse_loss(model(x), target).backward();
    opt.step();
    kt::io::NamedTensors next;
    next.add("x", x).add("target", target);
    for (const auto& [name, t] : model.state_dict()) next.add("next." + name, t);
    kt::io::save_safetensors(dir + "/kt_run_next.safetensors", next);
    std::cout << "wrote kt_mlp.safetensors, kt_mlp_io.safetensors and kt_run.safetensors to " << dir << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "write_kt_files: " << e.what() << "\n";
    return 1;
  }
}
