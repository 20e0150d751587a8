import Foundation
import KeychainServices

extension SecureStorage {
    /// When each key of this service (in ``accessGroup``, or in every entitled group when it is
    /// `nil`) was last written, from the items' attributes alone: no value is decrypted and
    /// nobody is asked to authenticate. Compare two readings to notice that values changed
    /// without reading them.
    ///
    /// ```swift
    /// let before = try storage.modificationDates()
    /// // … later
    /// if try storage.modificationDates() != before { reload() }
    /// ```
    /// - Throws: `.locked` while any of the items needs the device unlocked.
    public func modificationDates() throws(SecureStorageError) -> [String: Date] {
        var dates: [String: Date] = [:]
        for attributes in try allAttributes() {
            guard let key = Self.key(of: attributes) else { continue }
            dates[key] = attributes[kSecAttrModificationDate as String] as? Date ?? .distantPast
        }
        return dates
    }

    /// The raw bytes under `key` when they can be read without asking the user, else `nil`: no
    /// value is stored, or it was stored with `requireUserPresence` and reading it would prompt
    /// (`kSecUseAuthenticationUISkip`). For background work that must never show a prompt.
    /// - Throws: `.locked` when the value's protection needs the device unlocked.
    public func dataWithoutUserInteraction(for key: String) throws(SecureStorageError) -> Data? {
        var query = self.query(key)
        query[kSecReturnData as String] = true
        query[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip
        guard let result = try copyMatching(query) else { return nil }
        return result as? Data ?? Data()
    }
}
