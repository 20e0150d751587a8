#include "process_hardening.h"

#if defined(__linux__)
#include <sys/prctl.h>

int process_hardening_disable_dumping(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
#else
int process_hardening_disable_dumping(void) {
    return -1;
}
#endif
