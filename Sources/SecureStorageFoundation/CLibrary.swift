// The C library of the platform, for every module that imports SecureStorageFoundation: one
// place instead of an `#if canImport(Glibc)` prelude in each file that calls `open`, `flock`,
// `fstat`, `errno` and the rest.
//
// `@_exported` makes the library visible to the files of modules that import this one, and to
// nothing further: a module that imports KeychainCore (say) does not see it through KeychainCore,
// so the products' public API is unchanged. A file that uses C's mutable globals (`stdout`,
// `stderr`) writes `@preconcurrency import SecureStorageFoundation`, which Swift 6 needs for them
// as it did for `@preconcurrency import Glibc` (the attribute here does not carry over); that is
// not enough in a file that also imports Foundation, which re-exports the C library without
// it: such a file uses `standardInputStream` below.
#if canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @preconcurrency import Musl
#elseif canImport(Android)
@_exported @preconcurrency import Android
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// C's standard input stream (`stdin`), for `fread` and `ferror`. A file that also imports
/// Foundation (which re-exports the C library without `@preconcurrency`) cannot name the C
/// global under Swift 6; this file imports it `@preconcurrency`, so the stream is read here.
package var standardInputStream: UnsafeMutablePointer<FILE> { stdin }
