#pragma once
// The walk over a list of devices behind kt::dispatch_device (kt/core/dispatch.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/device_list.hpp"

#include <cctype>
#include <string>
#include <utility>

namespace kt::impl {

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The lower-case name dispatch_device takes for D ("cuda", "openmp", "serial", ...).
template <class D>
std::string device_key() {
  return lower(D::name());
}

template <class... Ds>
std::string first_available(DeviceList<Ds...>) {
  std::string best;
  ((best.empty() && is_available<Ds>() ? (void)(best = device_key<Ds>()) : (void)0), ...);
  return best;
}
template <class... Ds>
std::string device_keys(DeviceList<Ds...>) {
  std::string out;
  ((out += (out.empty() ? "" : ", ") + device_key<Ds>() + (is_available<Ds>() ? "" : " (not available here)")), ...);
  return out;
}
template <class R, class F>
R dispatch_named(const std::string& key, DeviceList<>, F&&) {
  KT_THROW("kt::dispatch_device: no enabled device matches \"", key, "\"");
}
template <class R, class F, class D, class... Ds>
R dispatch_named(const std::string& key, DeviceList<D, Ds...>, F&& f) {
  const bool wanted = key == "auto" ? is_available<D>() : key == device_key<D>();
  if (wanted) return std::forward<F>(f)(DeviceTag<D>{});
  return dispatch_named<R>(key, DeviceList<Ds...>{}, std::forward<F>(f));
}
template <class R, class F, class... Ds>
R dispatch_checked(const std::string& key, DeviceList<Ds...> list, F&& f) {
  bool found = false, usable = false;
  ((found = found || key == "auto" || key == device_key<Ds>(),
    usable = usable || (is_available<Ds>() && (key == "auto" || key == device_key<Ds>()))), ...);
  KT_REQUIRE(found, "kt::dispatch_device: no device \"", key, "\" among those this call is compiled for: ",
             device_keys(list), " (or \"auto\")");
  KT_REQUIRE(usable, "kt::dispatch_device: device \"", key, "\" is compiled in but not available on this "
             "machine (no GPU?); available here: ", device_keys(list));
  return dispatch_named<R>(key, list, std::forward<F>(f));
}

}  // namespace kt::impl
