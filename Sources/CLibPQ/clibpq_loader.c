#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libpq is opened with dlopen(3) on first use instead of being linked: the `keychain` tool links
   KeychainSync for its `sync` commands, and loading libpq with the TLS, Kerberos and LDAP
   libraries it depends on cost about 5 ms of every command's start-up, synced or not. The
   library is opened by its soname only (never a path: no '/' in the name), once, under
   pthread_once, so the dynamic loader searches the directories it trusts: LD_LIBRARY_PATH, the
   executable's RUNPATH and the system's directories. The executables are built with
   `--disable-local-rpath` (scripts/test, README), so their RUNPATH holds no $ORIGIN and a
   libpq.so.5 planted beside an executable is not loaded (KeychainCLITests' RunpathTests checks
   the built executables). When it is missing, clibpq_load() says why and every function fails
   as libpq does without a connection (PQconnectdb and PQconninfoParse return NULL). Each wrapper has the prototype of the
   header it replaces, so the compiler checks it. */

static struct {
    __typeof__(&PQconnectdb) PQconnectdb;
    __typeof__(&PQstatus) PQstatus;
    __typeof__(&PQfinish) PQfinish;
    __typeof__(&PQerrorMessage) PQerrorMessage;
    __typeof__(&PQsendQueryParams) PQsendQueryParams;
    __typeof__(&PQsetnonblocking) PQsetnonblocking;
    __typeof__(&PQflush) PQflush;
    __typeof__(&PQisBusy) PQisBusy;
    __typeof__(&PQgetResult) PQgetResult;
    __typeof__(&PQresultStatus) PQresultStatus;
    __typeof__(&PQclear) PQclear;
    __typeof__(&PQntuples) PQntuples;
    __typeof__(&PQnfields) PQnfields;
    __typeof__(&PQgetisnull) PQgetisnull;
    __typeof__(&PQgetvalue) PQgetvalue;
    __typeof__(&PQgetlength) PQgetlength;
    __typeof__(&PQresultErrorField) PQresultErrorField;
    __typeof__(&PQsocket) PQsocket;
    __typeof__(&PQconsumeInput) PQconsumeInput;
    __typeof__(&PQnotifies) PQnotifies;
    __typeof__(&PQfreemem) PQfreemem;
    __typeof__(&PQconninfoParse) PQconninfoParse;
    __typeof__(&PQconninfoFree) PQconninfoFree;
    __typeof__(&PQsetNoticeProcessor) PQsetNoticeProcessor;
} table;
static int loaded;
static char loadError[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void loadOnce(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library could not be loaded (%s): install libpq (Debian: libpq5)", reason ? reason : "libpq.so.5");
        return;
    }
    if ((table.PQconnectdb = (__typeof__(table.PQconnectdb))dlsym(handle, "PQconnectdb")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQconnectdb: install libpq 10 or later");
        return;
    }
    if ((table.PQstatus = (__typeof__(table.PQstatus))dlsym(handle, "PQstatus")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQstatus: install libpq 10 or later");
        return;
    }
    if ((table.PQfinish = (__typeof__(table.PQfinish))dlsym(handle, "PQfinish")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQfinish: install libpq 10 or later");
        return;
    }
    if ((table.PQerrorMessage = (__typeof__(table.PQerrorMessage))dlsym(handle, "PQerrorMessage")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQerrorMessage: install libpq 10 or later");
        return;
    }
    if ((table.PQsendQueryParams = (__typeof__(table.PQsendQueryParams))dlsym(handle, "PQsendQueryParams")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQsendQueryParams: install libpq 10 or later");
        return;
    }
    if ((table.PQsetnonblocking = (__typeof__(table.PQsetnonblocking))dlsym(handle, "PQsetnonblocking")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQsetnonblocking: install libpq 10 or later");
        return;
    }
    if ((table.PQflush = (__typeof__(table.PQflush))dlsym(handle, "PQflush")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQflush: install libpq 10 or later");
        return;
    }
    if ((table.PQisBusy = (__typeof__(table.PQisBusy))dlsym(handle, "PQisBusy")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQisBusy: install libpq 10 or later");
        return;
    }
    if ((table.PQgetResult = (__typeof__(table.PQgetResult))dlsym(handle, "PQgetResult")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQgetResult: install libpq 10 or later");
        return;
    }
    if ((table.PQresultStatus = (__typeof__(table.PQresultStatus))dlsym(handle, "PQresultStatus")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQresultStatus: install libpq 10 or later");
        return;
    }
    if ((table.PQclear = (__typeof__(table.PQclear))dlsym(handle, "PQclear")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQclear: install libpq 10 or later");
        return;
    }
    if ((table.PQntuples = (__typeof__(table.PQntuples))dlsym(handle, "PQntuples")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQntuples: install libpq 10 or later");
        return;
    }
    if ((table.PQnfields = (__typeof__(table.PQnfields))dlsym(handle, "PQnfields")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQnfields: install libpq 10 or later");
        return;
    }
    if ((table.PQgetisnull = (__typeof__(table.PQgetisnull))dlsym(handle, "PQgetisnull")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQgetisnull: install libpq 10 or later");
        return;
    }
    if ((table.PQgetvalue = (__typeof__(table.PQgetvalue))dlsym(handle, "PQgetvalue")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQgetvalue: install libpq 10 or later");
        return;
    }
    if ((table.PQgetlength = (__typeof__(table.PQgetlength))dlsym(handle, "PQgetlength")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQgetlength: install libpq 10 or later");
        return;
    }
    if ((table.PQresultErrorField = (__typeof__(table.PQresultErrorField))dlsym(handle, "PQresultErrorField")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQresultErrorField: install libpq 10 or later");
        return;
    }
    if ((table.PQsocket = (__typeof__(table.PQsocket))dlsym(handle, "PQsocket")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQsocket: install libpq 10 or later");
        return;
    }
    if ((table.PQconsumeInput = (__typeof__(table.PQconsumeInput))dlsym(handle, "PQconsumeInput")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQconsumeInput: install libpq 10 or later");
        return;
    }
    if ((table.PQnotifies = (__typeof__(table.PQnotifies))dlsym(handle, "PQnotifies")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQnotifies: install libpq 10 or later");
        return;
    }
    if ((table.PQfreemem = (__typeof__(table.PQfreemem))dlsym(handle, "PQfreemem")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQfreemem: install libpq 10 or later");
        return;
    }
    if ((table.PQconninfoParse = (__typeof__(table.PQconninfoParse))dlsym(handle, "PQconninfoParse")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQconninfoParse: install libpq 10 or later");
        return;
    }
    if ((table.PQconninfoFree = (__typeof__(table.PQconninfoFree))dlsym(handle, "PQconninfoFree")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQconninfoFree: install libpq 10 or later");
        return;
    }
    if ((table.PQsetNoticeProcessor = (__typeof__(table.PQsetNoticeProcessor))dlsym(handle, "PQsetNoticeProcessor")) == NULL) {
        snprintf(loadError, sizeof loadError, "PostgreSQL's client library lacks PQsetNoticeProcessor: install libpq 10 or later");
        return;
    }
    loaded = 1;
}

int clibpq_load(void) {
    pthread_once(&once, loadOnce);
    return loaded;
}

const char *clibpq_load_error(void) {
    pthread_once(&once, loadOnce);
    return loadError;
}

PGconn * PQconnectdb(const char *conninfo) {
    if (!clibpq_load()) return NULL;
    return table.PQconnectdb(conninfo);
}

ConnStatusType PQstatus(const PGconn *conn) {
    if (!clibpq_load()) return CONNECTION_BAD;
    return table.PQstatus(conn);
}

void PQfinish(PGconn *conn) {
    if (clibpq_load()) { table.PQfinish(conn); }
}

char * PQerrorMessage(const PGconn *conn) {
    if (!clibpq_load()) return (char *)clibpq_load_error();
    return table.PQerrorMessage(conn);
}

int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    if (!clibpq_load()) return 0;
    return table.PQsendQueryParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}

int PQsetnonblocking(PGconn *conn, int arg) {
    if (!clibpq_load()) return -1;
    return table.PQsetnonblocking(conn, arg);
}

int PQflush(PGconn *conn) {
    if (!clibpq_load()) return -1;
    return table.PQflush(conn);
}

int PQisBusy(PGconn *conn) {
    if (!clibpq_load()) return 0;
    return table.PQisBusy(conn);
}

PGresult * PQgetResult(PGconn *conn) {
    if (!clibpq_load()) return NULL;
    return table.PQgetResult(conn);
}

ExecStatusType PQresultStatus(const PGresult *res) {
    if (!clibpq_load()) return PGRES_FATAL_ERROR;
    return table.PQresultStatus(res);
}

void PQclear(PGresult *res) {
    if (clibpq_load()) { table.PQclear(res); }
}

int PQntuples(const PGresult *res) {
    if (!clibpq_load()) return 0;
    return table.PQntuples(res);
}

int PQnfields(const PGresult *res) {
    if (!clibpq_load()) return 0;
    return table.PQnfields(res);
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    if (!clibpq_load()) return 1;
    return table.PQgetisnull(res, tup_num, field_num);
}

char * PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    if (!clibpq_load()) return NULL;
    return table.PQgetvalue(res, tup_num, field_num);
}

int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    if (!clibpq_load()) return 0;
    return table.PQgetlength(res, tup_num, field_num);
}

char * PQresultErrorField(const PGresult *res, int fieldcode) {
    if (!clibpq_load()) return NULL;
    return table.PQresultErrorField(res, fieldcode);
}

int PQsocket(const PGconn *conn) {
    if (!clibpq_load()) return -1;
    return table.PQsocket(conn);
}

int PQconsumeInput(PGconn *conn) {
    if (!clibpq_load()) return 0;
    return table.PQconsumeInput(conn);
}

PGnotify * PQnotifies(PGconn *conn) {
    if (!clibpq_load()) return NULL;
    return table.PQnotifies(conn);
}

void PQfreemem(void *ptr) {
    if (clibpq_load()) { table.PQfreemem(ptr); }
}

PQconninfoOption * PQconninfoParse(const char *conninfo, char **errmsg) {
    if (errmsg != NULL) *errmsg = NULL;
    if (!clibpq_load()) return NULL;
    return table.PQconninfoParse(conninfo, errmsg);
}

void PQconninfoFree(PQconninfoOption *connOptions) {
    if (clibpq_load()) { table.PQconninfoFree(connOptions); }
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    if (!clibpq_load()) return NULL;
    return table.PQsetNoticeProcessor(conn, proc, arg);
}
