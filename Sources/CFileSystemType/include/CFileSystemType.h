#ifndef C_FILE_SYSTEM_TYPE_H
#define C_FILE_SYSTEM_TYPE_H
// statfs(2), whose f_type names the file system holding a path: Glibc's Swift module does not
// include <sys/vfs.h>.
#if defined(__linux__)
#include <sys/vfs.h>
#endif
#endif
