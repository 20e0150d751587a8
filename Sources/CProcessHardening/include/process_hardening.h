#ifndef PROCESS_HARDENING_H
#define PROCESS_HARDENING_H

/// Marks the process as not dumpable (no core file, no ptrace attach by other processes of the
/// same user). Returns 0 on success, -1 where the platform has no such switch.
int process_hardening_disable_dumping(void);

#endif
