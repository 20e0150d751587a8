#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import Synchronization

/// Fuzzes the SecItem API end to end: the input decodes to an operation and one or two
/// dictionaries of arbitrary keys and values (every `kSec…` constant, strings, data, numbers,
/// booleans, dates, nulls, arrays, nested dictionaries, access-control objects), which go to
/// `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` or `SecItemDelete` on a throw-away
/// keychain that every input finds in the same state (``canonicalItems``: reset after any input
/// that changed it), so finds, updates and deletes have something to match and a crash
/// reproduces from its input alone. Any OSStatus is fine; a crash, a hang or a memory error is a
/// finding.
public enum SecItemFuzzTarget {
    private static let keychain = FuzzEnvironment.keychain("secitem-target")
    private static let identity = ApplicationIdentity(
        applicationIdentifier: "FUZZTEAM.org.example.fuzz", accessGroups: ["FUZZTEAM.shared"])
    private static let keychainChanged = Mutex(true)

    /// What the keychain holds when each input starts.
    static let canonicalItems = [
        NewItem(
            .genericPassword, attributes: [.service: "api", .account: "alice", .label: "A"], data: Data("s3cret".utf8)),
        NewItem(.genericPassword, attributes: [.service: "api", .account: "bob"], data: Data([0, 255])),
        NewItem(
            .internetPassword, attributes: [.server: "example.com", .account: "carol", .port: 443],
            data: Data("pw".utf8))
    ]

    /// Runs one input; returns the OSStatus the call answered.
    @discardableResult
    public static func run(_ data: Data) -> OSStatus {
        if SecItemEnvironment.openedKeychain !== keychain {  // (again) after a test reset the environment
            SecItemEnvironment.useKeychain(keychain)
            SecItemEnvironment.applicationIdentity = identity
        }
        if keychainChanged.withLock({ $0 }) {
            FuzzEnvironment.empty(keychain)
            for item in canonicalItems { _ = try? keychain.add(item) }
        }
        var input = FuzzInput(data)
        let operation = input.choice(4)
        let query = dictionary(&input, depth: 0)
        var result: CFTypeRef?
        let status: OSStatus
        switch operation {
        case 0: status = input.bool() ? SecItemAdd(query, &result) : SecItemAdd(query, nil)
        case 1: status = input.bool() ? SecItemCopyMatching(query, &result) : SecItemCopyMatching(query, nil)
        case 2: status = SecItemUpdate(query, dictionary(&input, depth: 0))
        default: status = SecItemDelete(query)
        }
        keychainChanged.withLock { $0 = status == errSecSuccess && operation != 1 }
        precondition(status == errSecSuccess || result == nil, "a failed call returned a result")
        if let result { _ = String(describing: result) }  // every returned object must be well formed
        _ = SecCopyErrorMessageString(status, nil)
        return status
    }

    /// Inputs that decode to well-formed calls that succeed on the canonical items (add, find,
    /// update, delete): a seed corpus.
    public static var seeds: [Data] {
        func constant(_ name: CFString) -> UInt8 { UInt8(SecVocabulary.constants.firstIndex(of: name as String)!) }
        func text(_ string: String) -> [UInt8] { [UInt8(string.utf8.count)] + Array(string.utf8) }
        let generic = [constant(kSecClass), 0, constant(kSecClassGenericPassword)]
        let account = [constant(kSecAttrAccount), 1] + text("alice")
        let service = [constant(kSecAttrService), 1] + text("api")
        let add =
            [0, 4] + generic + [constant(kSecAttrAccount), 1] + text("dave") + service + [constant(kSecValueData), 2]
            + text("s3cret") + [1]
        let find =
            [1, 4] + generic + service + [
                constant(kSecMatchLimit), 0, constant(kSecMatchLimitAll),
                constant(kSecReturnAttributes), 3, 1, 1
            ]
        let update =
            [2, 2] + generic + account + [2, constant(kSecAttrLabel), 1] + text("label") + [constant(kSecValueData), 2]
            + text("new")
        let delete =
            [3, 2, constant(kSecClass), 0, constant(kSecClassInternetPassword), constant(kSecAttrServer), 1]
            + text("example.com")
        return [add, find, update, delete].map { Data($0) }
    }

    private static func dictionary(_ input: inout FuzzInput, depth: Int) -> CFDictionary {
        let dictionary = NSMutableDictionary()
        for _ in 0..<input.choice(10) {
            dictionary[key(&input)] = value(&input, depth: depth)
        }
        return dictionary
    }

    private static func key(_ input: inout FuzzInput) -> AnyHashable {
        let pick = Int(input.byte())
        switch pick {
        case 250: return NSNumber(value: input.integer())
        case 251...: return String(decoding: input.data(limit: 8), as: UTF8.self)
        default: return SecVocabulary.constants[pick % SecVocabulary.constants.count]
        }
    }

    private static func value(_ input: inout FuzzInput, depth: Int) -> Any {
        switch input.choice(depth < 2 ? 13 : 11) {
        case 0: return SecVocabulary.constants[Int(input.byte()) % SecVocabulary.constants.count]
        case 1: return String(decoding: input.data(limit: 16), as: UTF8.self)
        case 2: return input.data(limit: 64)
        case 3: return NSNumber(value: input.bool())
        case 4: return NSNumber(value: Int64(input.byte()) - 8)
        case 5: return NSNumber(value: input.integer())
        case 6: return NSNumber(value: Double(input.integer()) / 1000)
        case 7: return Date(timeIntervalSince1970: Double(input.integer() % 10_000_000_000))
        case 8: return NSNull()
        case 9: return accessControl(&input) ?? NSNull()
        case 10: return persistentReference(&input)
        case 11: return (0..<input.choice(4)).map { _ in value(&input, depth: depth + 1) } as NSArray
        default: return dictionary(&input, depth: depth + 1)
        }
    }

    /// A persistent reference's shape: a class name, then a 16-byte UUID or an 8-byte row id.
    private static func persistentReference(_ input: inout FuzzInput) -> Data {
        var bytes = Data(["genp", "inet", "cert", "keys", "idnt", "apls"][input.choice(6)].utf8)
        for _ in 0..<(input.bool() ? 16 : 8) { bytes.append(input.byte()) }
        return bytes
    }

    private static func accessControl(_ input: inout FuzzInput) -> SecAccessControl? {
        let protection = SecVocabulary.constants[Int(input.byte()) % SecVocabulary.constants.count] as CFString
        return SecAccessControlCreateWithFlags(
            nil, protection, SecAccessControlCreateFlags(rawValue: CFOptionFlags(input.byte())), nil)
    }
}
#endif
