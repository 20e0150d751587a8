#define _XOPEN_SOURCE 600
#include "pseudo_terminal.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int pseudo_terminal_open(int *primary, int *secondary) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0) { close(fd); return -1; }
    const char *name = ptsname(fd);
    if (name == NULL) { close(fd); return -1; }
    int other = open(name, O_RDWR | O_NOCTTY);
    if (other < 0) { close(fd); return -1; }
    *primary = fd;
    *secondary = other;
    return 0;
}
