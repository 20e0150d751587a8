import ArgumentParser
import KeychainCore

/// The hint a find or delete gets when it found nothing without `--synchronizable` and a
/// synchronizable item matches.
///
/// As in SecItem (and Apple's `security`), a query that does not mention kSecAttrSynchronizable
/// matches only items that do not sync: an item that arrived from another device of the sync
/// circle would look lost. The library keeps that rule; the tool says which flag finds the item.
enum SynchronizableHint {
    /// The hint for a search of `query` in `keychain` that found nothing; `nil` when the query
    /// already covered synchronizable items or none matches (or the keychain cannot tell: locked).
    static func text(for query: Query, in keychain: Keychain, deleting: Bool) -> String? {
        guard query.synchronizable == .no else { return nil }
        var synchronizable = query
        synchronizable.synchronizable = .yes
        synchronizable.limit = .one
        guard let found = try? keychain.find(synchronizable, returning: .attributes), !found.isEmpty else { return nil }
        let rule =
            "without it, a command looks only at items that do not sync, as SecItem queries without kSecAttrSynchronizable do"
        return deleting
            ? "a synchronizable item matches (`keychain list` marks them): add --synchronizable to delete it, on every device of the sync circle; \(rule)."
            : "a synchronizable item matches (one that syncs with your other devices; `keychain list` marks them): add --synchronizable to find it; \(rule)."
    }
}

/// ``reportingErrors(_:)`` for a find or delete of `query`: a not-found gets the
/// ``SynchronizableHint`` when a synchronizable item matches.
func reportingErrors<T>(searching query: Query, in keychain: Keychain, deleting: Bool = false, _ body: () throws -> T)
    throws -> T
{
    do {
        return try body()
    } catch let error as KeychainError {
        guard error.code == .itemNotFound,
            let hint = SynchronizableHint.text(for: query, in: keychain, deleting: deleting)
        else {
            return try reportingErrors { () throws -> T in throw error }
        }
        printError("keychain: \(error)")
        printError("hint: \(hint)")
        throw ExitCode(ExitStatus.notFound)
    }
}
