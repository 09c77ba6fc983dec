#pragma once
/// \file kt/tensor/generator.hpp
/// `kt::Generator`: a seed and a position in its stream of Philox draws (`torch.Generator`),
/// and the process-wide default one (`torch.manual_seed`). Random factories
/// (kt/tensor/random.hpp) and layer initialisation (kt/nn/init.hpp) draw from a Generator;
/// without one they use kt::default_generator(), seeded with 0 at start-up — never the clock.
///
///     kt::Generator gen(42);
///     auto a = kt::rand<float>({3}, gen), b = kt::rand<float>({3}, gen);   // a != b
///     kt::manual_seed(7);                        // torch.manual_seed(7)

#include <cstdint>

namespace kt {

/// A seed plus a position in its stream. Each draw through a Generator uses a fresh Philox
/// stream (the offset), so consecutive draws differ and a copied Generator repeats them.
class Generator {
public:
  explicit Generator(std::uint64_t seed) : seed_(seed) {}
  /// A generator at a saved position (`get_state` / `set_state`: seed() and offset() are its
  /// whole state, which a checkpoint stores).
  Generator(std::uint64_t seed, std::uint64_t offset) : seed_(seed), offset_(offset) {}
  std::uint64_t seed() const { return seed_; }
  std::uint64_t offset() const { return offset_; }
  /// The stream for the next draw; advances the generator.
  std::uint64_t next_offset() { return offset_++; }

private:
  std::uint64_t seed_;
  std::uint64_t offset_ = 0;
};

/// The generator random factories and layers use when given no seed (not thread-safe: draw
/// from one thread, or give each thread a Generator of its own).
inline Generator& default_generator() {
  static Generator generator(0);
  return generator;
}

/// Re-seeds default_generator() (`torch.manual_seed`).
inline void manual_seed(std::uint64_t seed) { default_generator() = Generator(seed); }

}  // namespace kt
