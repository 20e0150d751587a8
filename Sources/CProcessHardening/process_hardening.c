#include "process_hardening.h"

#include <sys/mman.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int process_hardening_disable_dumping(void) {
    // No core file whatever the kernel's core_pattern says: the limit is 0 and cannot be raised
    // again by this process (the hard limit drops too).
    struct rlimit none = { 0, 0 };
    int result = setrlimit(RLIMIT_CORE, &none);
#if defined(__linux__)
    // Not dumpable: no core even through a core_pattern pipe, no ptrace attach by other
    // processes of the same user, /proc/self/mem unreadable to them.
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) result = -1;
#endif
    return result;
}

int process_hardening_lock_memory(void) {
#if defined(__linux__) && defined(MCL_ONFAULT)
    // Pages are locked as they are first touched: the address space reserved but never used
    // (thread stacks, allocator arenas) costs nothing.
    return mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
#else
    return mlockall(MCL_CURRENT | MCL_FUTURE);
#endif
}

int process_hardening_memory_lock_unlimited(void) {
    struct rlimit limit;
    return getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur == RLIM_INFINITY;
}
