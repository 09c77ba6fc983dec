#pragma once
// Every MPI call of kt goes through KT_MPI: a failing call (with MPI_ERRORS_RETURN on kt's
// communicators) becomes a kt::Error naming the call and MPI's own message.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <mpi.h>

#include <string>

namespace kt::impl {

inline std::string mpi_error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

inline bool mpi_is_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

/// Throws kt::Error naming `call` and MPI's message unless `code` is MPI_SUCCESS.
inline void check_mpi(int code, const char* call) {
  if (code != MPI_SUCCESS) KT_THROW("kt::dist: ", call, " failed: ", mpi_error_string(code));
}

}  // namespace kt::impl

#define KT_MPI(call) ::kt::impl::check_mpi((call), #call)
