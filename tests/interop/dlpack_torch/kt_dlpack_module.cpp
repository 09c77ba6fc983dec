// A Python module over kt/interop/dlpack.hpp for check_dlpack.py: kt tensors handed to PyTorch
// and PyTorch tensors taken by kt, as "dltensor" capsules (the DLPack exchange's Python form).
#include <kt/interop/dlpack.hpp>
#include <kt/kt.hpp>

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

namespace py = pybind11;

namespace {

std::unique_ptr<kt::Runtime> runtime;
kt::Tensor<float, kt::Host> made, taken;

/// A capsule still named "dltensor" when Python frees it was never consumed: its
/// DLManagedTensor is still the producer's to delete. A consumer renames it "used_dltensor".
void free_unconsumed(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (m->deleter) m->deleter(m);
  }
}

std::uintptr_t address(const kt::Tensor<float, kt::Host>& t) { return reinterpret_cast<std::uintptr_t>(t.data()); }

}  // namespace

PYBIND11_MODULE(kt_dlpack, mod) {
  mod.def("start", [] { runtime = std::make_unique<kt::Runtime>(kt::RuntimeOptions().threads(1)); });
  mod.def("stop", [] {
    made = {};
    taken = {};
    runtime.reset();
  });
  // kt -> PyTorch: a new kt tensor 0, 1, ..., n-1 as a capsule, and its address.
  mod.def("make", [](int n) {
    made = kt::arange<float, kt::Host>(n);
    return py::make_tuple(py::capsule(kt::to_dlpack(made), "dltensor", &free_unconsumed), address(made));
  });
  mod.def("made_sum", [] { return static_cast<double>(kt::sum(made).item()); });
  mod.def("drop_made", [] { made = {}; });
  // PyTorch -> kt: takes a capsule over (renaming it, as consumers do) and returns the address.
  mod.def("take", [](py::capsule capsule) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
    if (m == nullptr) throw py::error_already_set();
    taken = kt::from_dlpack<float, kt::Host>(m);  // throws before taking it over
    PyCapsule_SetName(capsule.ptr(), "used_dltensor");
    return address(taken);
  });
  mod.def("scale_taken", [](float s) { taken *= s; });
  mod.def("drop_taken", [] { taken = {}; });
  mod.def("allocated", [] { return kt::memory_stats<kt::Host>().allocated; });
}
