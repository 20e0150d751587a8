#include "callgrind_region.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CALLGRIND_REGION_AVAILABLE 1
#endif
#endif

void callgrind_region_start(void) {
#ifdef CALLGRIND_REGION_AVAILABLE
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

void callgrind_region_stop(const char *name) {
#ifdef CALLGRIND_REGION_AVAILABLE
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(name);
#else
    (void)name;
#endif
}

int callgrind_region_running_on_valgrind(void) {
#ifdef CALLGRIND_REGION_AVAILABLE
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}
