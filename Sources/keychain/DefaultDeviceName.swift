import Foundation

/// The name a device joins a circle under when `--name` is not given: the host name and four
/// random characters (`build-server-k3q7`).
///
/// The host name alone is the same for every keychain on a host (two users, a service's own
/// keychain beside a person's, `--keychain` directories), and for clones of one machine image,
/// and `keychain sync remove NAME` and `status` then cannot tell them apart. Random characters
/// tell them apart without saying more about the host than its name (a user name would say who
/// runs it); the name shows in `keychain sync status` and `approve`, and `--name` chooses another.
enum DefaultDeviceName {
    /// A new default name (a different suffix at each call).
    static func make(host: String = ProcessInfo.processInfo.hostName) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var generator = SystemRandomNumberGenerator()
        let suffix = String((0..<4).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] })
        let trimmed = host.trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(trimmed.isEmpty ? "device" : trimmed)-\(suffix)"
    }
}
