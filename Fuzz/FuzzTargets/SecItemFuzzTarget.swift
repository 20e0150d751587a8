#if !canImport(Security)
import Foundation
import KeychainServices

/// Fuzzes the SecItem API end to end: the input decodes to an operation and one or two
/// dictionaries of arbitrary keys and values (every `kSec…` constant, strings, data, numbers,
/// booleans, dates, nulls, arrays, nested dictionaries, access-control objects), which go to
/// `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` or `SecItemDelete` on a throw-away
/// keychain. Any OSStatus is fine; a crash, a hang or a memory error is a finding.
public enum SecItemFuzzTarget {
    /// Runs one input; returns the OSStatus the call answered.
    @discardableResult
    public static func run(_ data: Data) -> OSStatus {
        _ = FuzzEnvironment.home
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
        precondition(status == errSecSuccess || result == nil, "a failed call returned a result")
        if let result { _ = String(describing: result) }   // every returned object must be well formed
        _ = SecCopyErrorMessageString(status, nil)
        return status
    }

    /// Inputs that decode to well-formed calls (add, find, update, delete): a seed corpus.
    public static var seeds: [Data] {
        func constant(_ name: CFString) -> UInt8 { UInt8(SecVocabulary.constants.firstIndex(of: name as String)!) }
        func text(_ string: String) -> [UInt8] { [UInt8(string.utf8.count)] + Array(string.utf8) }
        let generic = [constant(kSecClass), 0, constant(kSecClassGenericPassword)]
        let account = [constant(kSecAttrAccount), 1] + text("alice")
        let service = [constant(kSecAttrService), 1] + text("api")
        let add = [0, 4] + generic + account + service + [constant(kSecValueData), 2] + text("s3cret") + [1]
        let find = [1, 4] + generic + service + [constant(kSecMatchLimit), 0, constant(kSecMatchLimitAll),
                                                  constant(kSecReturnAttributes), 3, 1, 1]
        let update = [2, 2] + generic + account + [2, constant(kSecAttrLabel), 1] + text("label") + [constant(kSecValueData), 2] + text("new")
        let delete = [3, 2, constant(kSecClass), 0, constant(kSecClassInternetPassword), constant(kSecAttrServer), 1] + text("example.com")
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
        switch input.choice(depth < 2 ? 12 : 10) {
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
        case 10: return (0..<input.choice(4)).map { _ in value(&input, depth: depth + 1) } as NSArray
        default: return dictionary(&input, depth: depth + 1)
        }
    }

    private static func accessControl(_ input: inout FuzzInput) -> SecAccessControl? {
        let protection = SecVocabulary.constants[Int(input.byte()) % SecVocabulary.constants.count] as CFString
        return SecAccessControlCreateWithFlags(nil, protection, SecAccessControlCreateFlags(rawValue: CFOptionFlags(input.byte())), nil)
    }
}
#endif
