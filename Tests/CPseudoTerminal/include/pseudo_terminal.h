#ifndef PSEUDO_TERMINAL_H
#define PSEUDO_TERMINAL_H

/// Opens a new pseudo-terminal pair for tests. On success returns 0 and stores the primary and
/// secondary descriptors; returns -1 when the system has no pseudo-terminals.
int pseudo_terminal_open(int *primary, int *secondary);

#endif
