// On Apple platforms this module is Apple's Security framework and nothing else, the way
// swift-crypto's `Crypto` is CryptoKit there. Everywhere else, the files of this module
// implement the same API over KeychainCore (each is wrapped in
// `#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE`). Building with the environment
// variable SECURE_STORAGE_FORCE_PORTABLE set (Package.swift then defines the condition) selects
// that implementation on Apple platforms too.
#if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
@_exported import Security
#endif
