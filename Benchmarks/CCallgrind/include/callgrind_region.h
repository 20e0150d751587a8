#ifndef CALLGRIND_REGION_H
#define CALLGRIND_REGION_H

/// Marks the region of a benchmark whose instructions callgrind counts. Outside valgrind, and
/// where valgrind's headers are not installed, both calls do nothing.
///
/// Run under `valgrind --tool=callgrind --instr-atstart=no`: `callgrind_region_start` zeroes the
/// counters and starts instrumentation, `callgrind_region_stop` stops it and writes one profile
/// dump named `name`.
void callgrind_region_start(void);
void callgrind_region_stop(const char *name);

/// 1 when the benchmark runs under valgrind, 0 otherwise (and always 0 without valgrind's headers).
int callgrind_region_running_on_valgrind(void);

#endif
