#pragma once
// XXH64 (Yann Collet's xxHash, 64-bit variant, seed 0), streaming: the checksum kt writes for
// every tensor of a safetensors file. Chosen over CRC-32C because it is as fast in portable
// C++ (four independent multiply lanes, ~1 byte per cycle without any ISA-specific code)
// as CRC-32C is only with the SSE4.2/ARMv8 CRC instructions, has 64 bits (a random
// corruption goes unnoticed with probability 2^-64), and `xxhsum -H1` checks a tensor's bytes
// outside kt. The constants and steps are the algorithm's specification.

#include "kt/core/impl/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kt::impl {

class Xxh64 {
public:
  explicit Xxh64(std::uint64_t seed = 0)
      : lanes_{seed + p1 + p2, seed + p2, seed, seed - p1}, seed_(seed) {}

  /// Adds `n` bytes.
  void update(const void* data, std::size_t n) {
    if (n == 0) return;  // `data` may be null then (an empty tensor), which memcpy forbids
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += n;
    if (buffered_ > 0) {  // complete the pending stripe first
      const std::size_t take = n < stripe - buffered_ ? n : stripe - buffered_;
      std::memcpy(buffer_ + buffered_, p, take);
      buffered_ += take;
      p += take;
      n -= take;
      if (buffered_ < stripe) return;
      consume(buffer_);
      buffered_ = 0;
    }
    for (; n >= stripe; p += stripe, n -= stripe) consume(p);
    std::memcpy(buffer_, p, n);
    buffered_ = n;
  }

  /// The hash of everything added so far.
  std::uint64_t digest() const {
    std::uint64_t h;
    if (total_ >= stripe) {
      h = rotl(lanes_[0], 1) + rotl(lanes_[1], 7) + rotl(lanes_[2], 12) + rotl(lanes_[3], 18);
      for (const std::uint64_t lane : lanes_) h = (h ^ round(0, lane)) * p1 + p4;
    } else {
      h = seed_ + p5;
    }
    h += total_;
    const unsigned char* p = buffer_;
    std::size_t n = buffered_;
    for (; n >= 8; p += 8, n -= 8) h = rotl(h ^ round(0, read64(p)), 27) * p1 + p4;
    if (n >= 4) {
      h = rotl(h ^ (read32(p) * p1), 23) * p2 + p3;
      p += 4;
      n -= 4;
    }
    for (; n > 0; ++p, --n) h = rotl(h ^ (*p * p5), 11) * p1;
    h ^= h >> 33;
    h *= p2;
    h ^= h >> 29;
    h *= p3;
    return h ^ (h >> 32);
  }

  /// The hash of one buffer.
  static std::uint64_t of(const void* data, std::size_t n) {
    Xxh64 h;
    h.update(data, n);
    return h.digest();
  }

private:
  static constexpr std::uint64_t p1 = 0x9E3779B185EBCA87ULL, p2 = 0xC2B2AE3D27D4EB4FULL, p3 = 0x165667B19E3779F9ULL,
                                 p4 = 0x85EBCA77C2B2AE63ULL, p5 = 0x27D4EB2F165667C5ULL;
  static constexpr std::size_t stripe = 32;

  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static std::uint64_t round(std::uint64_t acc, std::uint64_t lane) { return rotl(acc + lane * p2, 31) * p1; }
  // Little-endian loads (kt's files are little-endian, and so are the hosts it supports).
  static std::uint64_t read64(const unsigned char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static std::uint64_t read32(const unsigned char* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  void consume(const unsigned char* p) {
    for (int i = 0; i < 4; ++i) lanes_[i] = round(lanes_[i], read64(p + 8 * i));
  }

  std::uint64_t lanes_[4];
  std::uint64_t seed_;
  std::uint64_t total_ = 0;
  unsigned char buffer_[stripe] = {};
  std::size_t buffered_ = 0;
};

}  // namespace kt::impl
