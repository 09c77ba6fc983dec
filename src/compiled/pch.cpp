// kt_compiled_pch: kt's headers precompiled once, with the flags of the programs that link
// kt::kt_compiled, for those programs to reuse (kt_use_precompiled_headers, cmake/ktCompiled.cmake).
// The precompiled header is this target's product; this file only gives it a translation unit.
