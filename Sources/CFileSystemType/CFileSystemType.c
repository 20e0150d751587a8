// Only the header: it makes <sys/vfs.h> visible to Swift.
#include "CFileSystemType.h"
