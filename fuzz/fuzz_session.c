/* fuzz_session.c — libFuzzer target for the TUI session file parser (see fuzz_targets.h). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_session(data, size);
    return 0;
}
