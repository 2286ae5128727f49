/* fuzz_idx.c — libFuzzer target for the idx parser (see fuzz_targets.h; built by `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_idx(data, size);
    return 0;
}
