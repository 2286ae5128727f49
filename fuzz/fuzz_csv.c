/* fuzz_csv.c — libFuzzer target for the csv parser (see fuzz_targets.h; built by `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_csv(data, size);
    return 0;
}
