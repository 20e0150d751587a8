#ifndef C_LIBPQ_H
#define C_LIBPQ_H
/* PostgreSQL's client library (Debian: libpq-dev to build, libpq5 to run), for the sync server
   connection. The functions are not linked: clibpq_loader.c opens libpq on first use (see there). */
#include <postgresql/libpq-fe.h>

/* Opens libpq once; 1 when it and every function used are there, 0 otherwise. */
int clibpq_load(void);
/* Why clibpq_load() failed, or an empty string. */
const char *clibpq_load_error(void);
#endif
