// On Apple platforms this module is Apple's Security framework and nothing else, the way
// swift-crypto's `Crypto` is CryptoKit there. Everywhere else, the files of this module
// implement the same API over KeychainCore (each is wrapped in `#if !canImport(Security)`).
#if canImport(Security)
@_exported import Security
#endif
