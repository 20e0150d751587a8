#ifndef SQLCIPHER_SHIM_H
#define SQLCIPHER_SHIM_H

/// 1: the shim that lets GRDB run on SQLCipher 3.4 (sqlcipher_shim.c) is built.
int sqlcipher_shim_loaded(void);

#endif
