// No include guard: closes kt/core/impl/public_begin.hpp at the end of a public header.
#pragma pop_macro("KT_IMPL_PUBLIC_INCLUDE")
