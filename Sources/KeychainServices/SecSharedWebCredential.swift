#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// `kSecSharedPassword`: the password of a credential `SecRequestSharedWebCredential` returns.
nonisolated(unsafe) public let kSecSharedPassword: CFString = "spwd"

/// **Linux answers as a device without Safari's shared credentials.** Shared web credentials
/// need a browser's password store and a domain that approves the app through its
/// `apple-app-site-association` file; neither exists here, so the call completes, on a global
/// queue, with `errSecAuthFailed` (-25293: the domain did not approve the app), as Apple's does
/// for an app whose domain does not list it. Nothing is stored.
public func SecAddSharedWebCredential(
    _ fqdn: CFString, _ account: CFString, _ password: CFString?,
    _ completionHandler: @escaping @Sendable (CFError?) -> Void
) {
    let domain = fqdn as String
    DispatchQueue.global().async {
        completionHandler(
            SecItemCall.cfError(
                errSecAuthFailed,
                "\(domain) failed to approve this app: shared web credentials (associated domains) do not exist on this platform."
            ))
    }
}

/// **Linux answers as a device without Safari's shared credentials:** there are none to offer,
/// so the call completes, on a global queue, with no array and `errSecItemNotFound` (-25300),
/// as Apple's does when no saved credential matches.
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?, _ account: CFString?,
    _ completionHandler: @escaping @Sendable (CFArray?, CFError?) -> Void
) {
    DispatchQueue.global().async {
        completionHandler(
            nil,
            SecItemCall.cfError(
                errSecItemNotFound, "No shared web credential matches: this platform has no shared web credentials."))
    }
}

/// A random password in the form Apple's `SecCreateSharedWebCredentialPassword` gives:
/// `xxx-xxx-xxx-xxx`, with lower-case letters, upper-case letters and digits (each at least once),
/// leaving out characters that are easily confused (`i l o I O 0 1 2`): about 69 bits of entropy.
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    let lower = Array("abcdefghjkmnpqrstuvwxyz")
    let upper = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
    let digits = Array("3456789")
    let all = lower + upper + digits
    var generator = SystemRandomNumberGenerator()
    while true {
        let characters = (0..<12).map { _ in all.randomElement(using: &generator)! }
        guard characters.contains(where: lower.contains), characters.contains(where: upper.contains),
            characters.contains(where: digits.contains)
        else { continue }
        let groups = stride(from: 0, to: 12, by: 3).map { String(characters[$0..<$0 + 3]) }
        return groups.joined(separator: "-") as CFString
    }
}
#endif
