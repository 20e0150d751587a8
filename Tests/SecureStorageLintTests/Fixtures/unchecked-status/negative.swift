import Foundation
import Security
import XCTest

func delete(_ query: CFDictionary) throws {
    let status = SecItemDelete(query)
    guard status == errSecSuccess || status == errSecItemNotFound else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
}

func read(_ query: CFDictionary) throws -> Data? {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    switch status {
    case errSecSuccess: return result as? Data
    case errSecItemNotFound: return nil
    default: throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
    }
}

func retrieve(_ query: CFDictionary) throws -> Data {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    guard status == errSecSuccess else {
        if status == errSecItemNotFound { throw CocoaError(.fileNoSuchFile) }
        throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
    }
    return result as! Data
}

// The status is the result: returned, passed on, the implicit value of a closure or getter.
func add(_ query: CFDictionary) -> OSStatus { SecItemAdd(query, nil) }
func remove(_ query: CFDictionary) -> OSStatus { return SecItemDelete(query) }
let deleteAll: (CFDictionary) -> OSStatus = { SecItemDelete($0) }
var addStatus: OSStatus { SecItemAdd([kSecClass: kSecClassKey] as CFDictionary, nil) }
func report(_ query: CFDictionary) { log(status: SecItemDelete(query)) }
func log(status: OSStatus) {}

final class Tests: XCTestCase {
    func testDelete() {
        XCTAssertEqual(SecItemDelete([kSecClass: kSecClassGenericPassword] as CFDictionary), errSecItemNotFound)
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword] as CFDictionary, nil)
        XCTAssertEqual(status, errSecItemNotFound)
    }
}

// The status assigned inside a closure and read after it (Valet's shape).
func locked(_ query: CFDictionary, queue: DispatchQueue) throws {
    var status = errSecNotAvailable
    queue.sync { status = SecItemDelete(query) }
    guard status == errSecSuccess || status == errSecItemNotFound else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
}
