// No include guard: every public header of kt includes this before its first #include and
// kt/core/impl/public_end.hpp after its last line, so KT_IMPL_PUBLIC_INCLUDE is defined exactly
// while a public header is being read. push_macro/pop_macro make that a stack: nested public
// headers restore the state their includer saw. kt/core/impl/internal.hpp checks it.
#pragma push_macro("KT_IMPL_PUBLIC_INCLUDE")
#undef KT_IMPL_PUBLIC_INCLUDE
#define KT_IMPL_PUBLIC_INCLUDE 1
