import Crypto
import Foundation
import SecureStorageFoundation

/// The journal record of one keyring file's import, kept in the keychain in the library-owned
/// namespace of migration journals (service `SecureStorage.migrations`, account
/// `gnome-keyring:` and the SHA-256 of the file's path), so no app or import can plant one. It
/// holds the file's hash, whether the import finished, and the view hint each item went to
/// (item ids and view hints: names only, never a secret), which says which items are duplicates
/// (see ``GnomeKeyringImport``).
struct GnomeKeyringJournal: Equatable {
    /// SHA-256 of the keyring file when it was last imported.
    var fileHash: Data
    /// Whether every item was written and verified (no conflict left).
    var done: Bool
    /// The view hint (`vwht`) of each item id: empty for an item without one (the first of its
    /// service and account), ``GnomeKeyringImport/duplicateViewHint(keyring:itemID:)`` for a
    /// duplicate.
    var viewHints: [UInt32: String]

    /// 2: item ids with view hints. Version 1 (item ids with accounts, from builds that renamed
    /// duplicates) is refused as unreadable rather than misread.
    private static let version: UInt8 = 2

    static func account(for path: String) -> String {
        "gnome-keyring:" + SHA256.hash(data: Data(path.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func query(for path: String) -> Query {
        var query = Query(
            .genericPassword,
            [.service: .string(GnomeKeyringImport.journalService), .account: .string(account(for: path))],
            limit: .one)
        query.owner = GnomeKeyringImport.journalOwner
        return query
    }

    var encoded: Data {
        var writer = ByteWriter()
        writer.append(Self.version)
        writer.appendLengthPrefixed(fileHash)
        writer.append(done ? 1 : 0)
        writer.append(bigEndian: UInt32(viewHints.count))
        for (id, viewHint) in viewHints.sorted(by: { $0.key < $1.key }) {
            writer.append(bigEndian: id)
            writer.appendLengthPrefixed(viewHint)
        }
        return writer.data
    }

    init(fileHash: Data, done: Bool, viewHints: [UInt32: String]) {
        self.fileHash = fileHash
        self.done = done
        self.viewHints = viewHints
    }

    init?(encoded: Data) {
        var reader = ByteReader(encoded)
        guard reader.readByte() == Self.version, let hash = reader.readLengthPrefixed(),
            let done = reader.readByte(), done <= 1, let count = reader.readBigEndian(UInt32.self),
            Int(count) <= reader.remainingCount / 8
        else { return nil }
        var viewHints: [UInt32: String] = [:]
        for _ in 0..<count {
            guard let id = reader.readBigEndian(UInt32.self), let viewHint = reader.readLengthPrefixedText() else {
                return nil
            }
            viewHints[id] = viewHint
        }
        guard reader.isAtEnd else { return nil }
        self.init(fileHash: hash, done: done == 1, viewHints: viewHints)
    }

    /// The record of the keyring file at `path`, or nil when none was made.
    static func load(for path: String, from keychain: Keychain) throws(KeychainError) -> GnomeKeyringJournal? {
        guard let data = try keychain.findFirst(query(for: path), returning: [.data])?.data else { return nil }
        guard let journal = GnomeKeyringJournal(encoded: data) else {
            throw .gnomeKeyringJournalUnreadable(path: path)
        }
        return journal
    }

    /// Records this state for the keyring file at `path`.
    func save(for path: String, in keychain: Keychain) throws(KeychainError) {
        let data = encoded
        do {
            try keychain.update(Self.query(for: path), with: ItemChanges(data: data))
            return
        } catch  where error.code == .itemNotFound {}
        var item = NewItem(
            .genericPassword,
            attributes: [
                .service: .string(GnomeKeyringImport.journalService), .account: .string(Self.account(for: path)),
                .label: .string("GNOME Keyring import journal")
            ],
            data: data, accessibility: .afterFirstUnlockThisDeviceOnly)
        item.owner = GnomeKeyringImport.journalOwner
        _ = try keychain.add(item)
    }
}
