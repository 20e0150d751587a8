import Foundation
import Security
import XCTest

// Mapping an option to the constant, matching on it, asserting it: naming is not using.
enum Accessibility {
    case always, afterFirstUnlock
    var constant: CFString {
        switch self {
        case .always: return kSecAttrAccessibleAlways
        case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        }
    }
}

func describe(_ value: CFString) -> String {
    switch value {
    case kSecAttrAccessibleAlways: return "always"
    default: return "other"
    }
}

final class AccessibilityTests: XCTestCase {
    func testAlwaysIsDeprecated() {
        XCTAssertNotEqual(kSecAttrAccessibleAlways, kSecAttrAccessibleAfterFirstUnlock)
    }
}

let vocabulary: [CFString] = [kSecAttrAccessibleAlways, kSecAttrAccessibleAlwaysThisDeviceOnly]

func store(_ data: Data) -> OSStatus {
    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: data,
                kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly] as CFDictionary, nil)
}

func always(_ block: () -> Void) { block() }
func schedule() { always { } }

// An aliased key that is not the accessibility: a table keyed by labels.
enum KeychainAttr { static let attrLabel = kSecAttrLabel as String }
func describe() -> [String: Any] {
    [KeychainAttr.attrLabel: "kSecAttrAccessibleAlways", "legacy": kSecAttrAccessibleAlwaysThisDeviceOnly as String]
}
