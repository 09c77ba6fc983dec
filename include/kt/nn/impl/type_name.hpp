#pragma once
// A class's name as printouts show it: "Linear" for kt::nn::Linear<float, Kokkos::Serial>,
// "Residual" for a user's Residual<Kokkos::OpenMP> (PyTorch prints the class name).

#include "kt/core/impl/internal.hpp"

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

#if defined(__GNUG__)
#include <cxxabi.h>
#endif

namespace kt::impl {

inline std::string short_type_name(const std::type_info& type) {
  std::string name = type.name();
#if defined(__GNUG__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                   std::free);
  if (status == 0 && demangled) name = demangled.get();
#endif
  name = name.substr(0, name.find('<'));              // drop template arguments
  const auto colon = name.rfind("::");                // drop namespaces
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

}  // namespace kt::impl
