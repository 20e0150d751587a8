#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// A random-number generator reference; only the default (system) generator exists.
public final class SecRandomRef: Sendable {
    private init() {}
}

/// The default random-number generator: the operating system's cryptographically secure source.
public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes; returns `errSecSuccess`,
/// or `errSecParam` for a negative count.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    SystemRandom.fill(UnsafeMutableRawBufferPointer(start: bytes, count: count))
    return errSecSuccess
}
#endif
