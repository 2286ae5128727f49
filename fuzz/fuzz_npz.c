/* fuzz_npz.c — libFuzzer target for .npz archives read through libzip (see fuzz_targets.h;
 * built by `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_npz(data, size);
    return 0;
}
