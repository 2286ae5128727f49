/* fuzz_npy.c — libFuzzer target for the npy parser (see fuzz_targets.h; built by `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_npy(data, size);
    return 0;
}
