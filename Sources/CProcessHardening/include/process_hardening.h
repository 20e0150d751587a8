#ifndef PROCESS_HARDENING_H
#define PROCESS_HARDENING_H

/// Disables core dumps (RLIMIT_CORE 0, soft and hard) and, on Linux, marks the process as not
/// dumpable (PR_SET_DUMPABLE 0: no core through a pipe either, no ptrace attach by other
/// processes of the same user). Returns 0 on success, -1 when a step failed.
int process_hardening_disable_dumping(void);

/// Locks the process's memory, now and from now on, so that no page of it (keys, passphrases)
/// is written to swap (mlockall; MCL_ONFAULT where the system has it). Call it only where the
/// locked-memory limit cannot be reached (RLIMIT_MEMLOCK unlimited, or CAP_IPC_LOCK): with a
/// finite limit, later allocations would fail. Returns 0 on success, -1 (errno set) otherwise.
int process_hardening_lock_memory(void);

/// 1 when RLIMIT_MEMLOCK is unlimited (soft limit RLIM_INFINITY), 0 otherwise.
int process_hardening_memory_lock_unlimited(void);

#endif
