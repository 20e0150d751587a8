#ifndef C_EXTENDED_ATTRIBUTES_H
#define C_EXTENDED_ATTRIBUTES_H
// fgetxattr for reading a file's POSIX ACL (system.posix_acl_access): Glibc's Swift module does
// not include <sys/xattr.h>.
#if defined(__linux__)
#include <sys/xattr.h>
#endif
#endif
