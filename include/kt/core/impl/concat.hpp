#pragma once
// Streams values into one string: the message of a kt::Error.
//
// kt throws from hundreds of places, each with its own list of argument types. A variadic
// template that streams them would be one function per list, each with its own ostringstream
// code: about 7% of the main example's machine code. Instead each argument becomes a
// (pointer, stream function) pair, and one non-template function streams the array: a message
// costs one stream function per argument type (char arrays count as const char*).

#include "kt/core/impl/internal.hpp"

#include <cstddef>
#include <initializer_list>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

namespace kt::impl {

/// One argument of concat: its address and the function that streams it.
struct StreamArg {
  const void* value;
  void (*put)(std::ostream&, const void*);
};

template <class A>
void stream_value(std::ostream& os, const void* value) {
  if constexpr (std::is_function_v<A>) os << reinterpret_cast<A*>(const_cast<void*>(value));  // a manipulator
  else os << *static_cast<const A*>(value);
}

inline void stream_c_string(std::ostream& os, const void* value) { os << static_cast<const char*>(value); }

template <class A>
StreamArg stream_arg(const A& a) {
  if constexpr (std::is_function_v<A>) return {reinterpret_cast<const void*>(&a), &stream_value<A>};
  else return {&a, &stream_value<A>};
}
template <std::size_t N>
StreamArg stream_arg(const char (&s)[N]) {
  return {s, &stream_c_string};
}

/// Streams the arguments, in order, into one string.
inline std::string concat_streamed(std::initializer_list<StreamArg> args) {
  std::ostringstream os;
  for (const StreamArg& a : args) a.put(os, a.value);
  return os.str();
}

/// Streams every argument into one string (the message of a kt::Error).
template <class... Args>
std::string concat(const Args&... args) {
  return concat_streamed({stream_arg(args)...});
}

}  // namespace kt::impl
