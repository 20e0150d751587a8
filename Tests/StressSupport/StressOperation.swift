import Foundation
import KeychainCore

/// One write the stress workloads perform on a generic password (shared by `keychain-stress`
/// and the suites that check what it did).
public enum StressOperation: String, CaseIterable, Sendable {
    case add, update, upsert, delete

    /// What the engine answered: success, or one of the two refusals a model predicts.
    public enum Outcome: String, Sendable {
        case ok, duplicate, notFound
    }

    /// Runs the operation on the item `key` of `service`, writing `value` where it writes one.
    public func perform(on keychain: Keychain, service: String, key: String, value: Data) throws(KeychainError)
        -> Outcome
    {
        let identity: [AttributeKey: AttributeValue] = [.service: .string(service), .account: .string(key)]
        do {
            switch self {
            case .add:
                try keychain.add(
                    NewItem(
                        .genericPassword,
                        attributes: identity.merging([.label: .string("label \(value.count)")]) { $1 }, data: value))
            case .update:
                try keychain.update(
                    Query(.genericPassword, identity),
                    with: ItemChanges(attributes: [.comment: .string("updated")], data: value))
            case .upsert:
                _ = try keychain.addOrUpdate(NewItem(.genericPassword, attributes: identity, data: value))
            case .delete:
                try keychain.delete(Query(.genericPassword, identity))
            }
            return .ok
        } catch {
            switch (error.code, self) {
            case (.duplicateItem, .add): return .duplicate
            case (.itemNotFound, .update), (.itemNotFound, .delete): return .notFound
            default: throw error
            }
        }
    }

    /// The outcome a model knows in advance, given whether the item exists.
    public func expectedOutcome(present: Bool) -> Outcome {
        switch self {
        case .add: present ? .duplicate : .ok
        case .update, .delete: present ? .ok : .notFound
        case .upsert: .ok
        }
    }

    /// The value (as the sequence number that wrote it) an item holds after this operation,
    /// number `sequence`, ran to completion on an item holding `current`.
    public func result(sequence: Int, on current: Int?) -> Int? {
        switch self {
        case .add: current ?? sequence
        case .update: current == nil ? nil : sequence
        case .upsert: sequence
        case .delete: nil
        }
    }
}

/// The value written by operation number `sequence`: its number, then filler of a length that
/// varies from 0 to about 3 KB, so rows span one or several database pages. A checker rebuilds
/// it from the number alone.
public func stressValue(sequence: Int) -> Data {
    var value = Data("v\(sequence);".utf8)
    value.append(Data(repeating: UInt8(ascii: "a") + UInt8(sequence % 26), count: (sequence &* 7919) % 3000))
    return value
}

/// The sequence number a stress value starts with, when it is one.
public func stressSequence(of value: Data) -> Int? {
    guard value.first == UInt8(ascii: "v"), let end = value.firstIndex(of: UInt8(ascii: ";")) else { return nil }
    return Int(String(decoding: value[value.index(after: value.startIndex)..<end], as: UTF8.self))
}
