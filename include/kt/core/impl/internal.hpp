// No include guard: every header under an impl/ folder includes this first, and it checks each
// time. The impl headers are kt's implementation, not its API (they change without notice), so,
// as Kokkos does with its own, they refuse to be included except from a public header
// (kt/core/impl/public_begin.hpp). Code that needs kt's internals on purpose — kt's own tests
// of an internal piece — says so by defining KT_USES_INTERNALS before including one.
#if !defined(KT_IMPL_PUBLIC_INCLUDE) && !defined(KT_USES_INTERNALS)
#error "kt: this header is internal to kt (it is in an impl/ folder): include a public header instead (kt/kt.hpp or kt/<layer>/<name>.hpp); code that needs kt's internals on purpose defines KT_USES_INTERNALS before including it"
#endif
