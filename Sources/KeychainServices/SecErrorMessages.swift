#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// The human-readable message of an OSStatus, as Apple's `SecErrorMessages.strings` gives it, or
/// `"OSStatus <n>"` when there is none. Pass `nil` for `reserved`.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    NSString(string: securityErrorMessages[status] ?? "OSStatus \(status)")
}
#endif
