import Foundation

/// A reference to one stored item that stays valid across updates (`kSecValuePersistentRef`).
///
/// The current form is 20 bytes: the four-character class followed by the item's 16-byte UUID.
/// The legacy 12-byte form (class followed by a big-endian row id) is understood on input.
public struct PersistentReference: Sendable, Hashable, CustomStringConvertible {
    /// How the reference names its item.
    public enum Target: Sendable, Hashable {
        /// The item's permanent UUID (the current, 20-byte form).
        case uuid(UUID)
        /// The item's SQLite row id (the legacy, 12-byte form).
        case rowID(Int64)
    }

    /// The class named in the reference.
    public let itemClass: ItemClass
    /// The item the reference points at.
    public let target: Target

    /// Creates a reference to an item's UUID.
    public init(itemClass: ItemClass, uuid: UUID) {
        self.itemClass = itemClass
        self.target = .uuid(uuid)
    }

    /// Parses the bytes of a persistent reference; returns `nil` when they are not one of the
    /// two known forms (Apple answers `errSecParam` then).
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count == 20 || bytes.count == 12,
            let name = String(bytes: bytes[0..<4], encoding: .ascii),
            let itemClass = ItemClass(rawValue: name)
        else { return nil }
        self.itemClass = itemClass
        if bytes.count == 20 {
            let u = Array(bytes[4..<20])
            target = .uuid(
                UUID(
                    uuid: (
                        u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
                        u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]
                    )))
        } else {
            target = .rowID(bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) })
        }
    }

    /// Whether this is the legacy 12-byte form.
    public var isLegacy: Bool {
        if case .rowID = target { return true }
        return false
    }

    /// The bytes Apple's API hands out: class ‖ UUID (or class ‖ row id for the legacy form).
    public var data: Data {
        var bytes = Data(itemClass.rawValue.utf8)
        switch target {
        case .uuid(let uuid):
            bytes.append(contentsOf: uuid.bytes)
        case .rowID(let rowID):
            bytes.append(contentsOf: withUnsafeBytes(of: rowID.bigEndian) { Array($0) })
        }
        return bytes
    }

    /// The class followed by the target, for diagnostics.
    public var description: String {
        switch target {
        case .uuid(let uuid): "\(itemClass.rawValue):\(uuid.uuidString)"
        case .rowID(let rowID): "\(itemClass.rawValue):#\(rowID)"
        }
    }
}

extension UUID {
    /// The 16 bytes of the UUID.
    var bytes: Data {
        withUnsafeBytes(of: uuid) { Data($0) }
    }

    /// Reads a UUID from exactly 16 bytes.
    init?(bytes: Data) {
        guard bytes.count == 16 else { return nil }
        let b = [UInt8](bytes)
        self.init(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
