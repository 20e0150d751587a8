// Declarations only (include/fuzzer_driver.h); libFuzzer provides the definition.
#include "fuzzer_driver.h"
