#ifndef PROCESS_HARDENING_H
#define PROCESS_HARDENING_H

/// Disables core dumps (RLIMIT_CORE 0, soft and hard) and, on Linux, marks the process as not
/// dumpable (PR_SET_DUMPABLE 0: no core through a pipe either, no ptrace attach by other
/// processes of the same user). Returns 0 on success, -1 when a step failed.
int process_hardening_disable_dumping(void);

#endif
