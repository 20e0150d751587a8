#ifndef C_LIBPQ_H
#define C_LIBPQ_H
// PostgreSQL's client library (Debian: libpq-dev), for the sync server connection.
#include <postgresql/libpq-fe.h>
#endif
