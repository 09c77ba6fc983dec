#pragma once
// The dtypes of the safetensors format (its spec's list) and the kt dtype each maps to.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace kt::impl {

struct SafetensorsDtype {
  const char* name;
  int bytes;
};

/// The format's dtype `name`, or nullptr when the format has none of that name.
inline const SafetensorsDtype* safetensors_dtype(const std::string& name) {
  static const SafetensorsDtype types[] = {
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
      {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4},     {"F64", 8},     {"I64", 8}, {"U64", 8}};
  for (const auto& t : types)
    if (name == t.name) return &t;
  return nullptr;
}

/// The format's name for kt dtype T.
template <class T>
constexpr const char* safetensors_name() {
  if constexpr (std::is_same_v<T, double>) return "F64";
  else if constexpr (std::is_same_v<T, float>) return "F32";
  else if constexpr (std::is_same_v<T, half>) return "F16";
  else if constexpr (std::is_same_v<T, bfloat16>) return "BF16";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "I64";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "I32";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "U8";
  else static_assert(sizeof(T) == 0, "kt::io: T has no safetensors dtype");
}

/// Whether a stored `dtype` loads into T without conversion (BOOL into uint8: the same bytes).
template <class T>
bool safetensors_loads_as(const std::string& dtype) {
  return dtype == safetensors_name<T>() || (std::is_same_v<T, std::uint8_t> && dtype == "BOOL");
}

}  // namespace kt::impl
