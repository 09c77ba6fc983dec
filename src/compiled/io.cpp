// kt_compiled: checkpoints and module files of floating modules and optimizers
// (kt/io/module_io.hpp, impl/optimizer_record.hpp, impl/checkpoint_parts.hpp).
#define KT_COMPILED_DEFINES_IO
#include "kt/io/checkpoint.hpp"
#include "kt/io/module_io.hpp"

KT_ETI_MODULE_IO(template)
KT_ETI_OPTIMIZER_RECORD(template)
KT_ETI_CHECKPOINT_PARTS(template)
