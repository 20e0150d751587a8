#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

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
    var generator = SystemRandomNumberGenerator()
    var offset = 0
    while offset < count {
        var word = generator.next()
        let chunk = min(8, count - offset)
        withUnsafeBytes(of: &word) { bytes.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: chunk) }
        offset += chunk
    }
    return errSecSuccess
}
#endif
