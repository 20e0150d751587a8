#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainServices
import XCTest

/// The API surface existing code needs.
final class SecurityAPISurfaceTests: XCTestCase {
    /// Raw values of the constants.
    func testConstantsHaveApplesRawValues() {
        let expected: [(CFString, String)] = [
            (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
            (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
            (kSecAttrAccessible, "pdmn"), (kSecAttrAccessControl, "accc"), (kSecAttrAccessGroup, "agrp"),
            (kSecAttrSynchronizable, "sync"), (kSecAttrSynchronizableAny, "syna"), (kSecAttrAccount, "acct"),
            (kSecAttrService, "svce"), (kSecAttrGeneric, "gena"), (kSecAttrLabel, "labl"), (kSecAttrServer, "srvr"),
            (kSecAttrProtocol, "ptcl"), (kSecAttrPort, "port"), (kSecAttrApplicationTag, "atag"),
            (kSecAttrKeyType, "type"),
            (kSecAttrKeyClass, "kcls"), (kSecAttrTokenID, "tkid"), (kSecAttrPersistentReference, "persistref"),
            (kSecAttrAccessibleWhenUnlocked, "ak"), (kSecAttrAccessibleAfterFirstUnlock, "ck"),
            (kSecAttrAccessibleAlways, "dk"),
            (kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"),
            (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"),
            (kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"), (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"),
            (kSecMatchLimit, "m_Limit"), (kSecMatchLimitOne, "m_LimitOne"), (kSecMatchLimitAll, "m_LimitAll"),
            (kSecReturnData, "r_Data"), (kSecReturnAttributes, "r_Attributes"), (kSecReturnRef, "r_Ref"),
            (kSecReturnPersistentRef, "r_PersistentRef"), (kSecValueData, "v_Data"), (kSecValueRef, "v_Ref"),
            (kSecValuePersistentRef, "v_PersistentRef"), (kSecUseDataProtectionKeychain, "nleg"),
            (kSecUseAuthenticationUI, "u_AuthUI"), (kSecUseAuthenticationUISkip, "u_AuthUIS"),
            (kSecAttrProtocolHTTPS, "htps"), (kSecAttrProtocolFTP, "ftp "),
            (kSecAttrAuthenticationTypeHTMLForm, "form"),
            (kSecAttrKeyTypeECSECPrimeRandom, "73"), (kSecAttrKeyTypeRSA, "42"), (kSecAttrKeyClassPrivate, "1"),
            (kSecAttrTokenIDSecureEnclave, "com.apple.setoken"), (kSecAttrAccessGroupToken, "com.apple.token"),
            (kSecPrivateKeyAttrs, "private")
        ]
        for (constant, raw) in expected { XCTAssertEqual(constant as String, raw) }
    }

    /// Status values and messages.
    func testStatusCodesAndMessages() {
        let expected: [(OSStatus, OSStatus, String)] = [
            (errSecSuccess, 0, "No error."), (errSecUnimplemented, -4, "Function or operation not implemented."),
            (errSecParam, -50, "One or more parameters passed to a function were not valid."),
            (errSecAllocate, -108, "Failed to allocate memory."),
            (errSecUserCanceled, -128, "User canceled the operation."),
            (errSecNotAvailable, -25291, "No keychain is available. You may need to restart your computer."),
            (errSecAuthFailed, -25293, "The user name or passphrase you entered is not correct."),
            (errSecDuplicateItem, -25299, "The specified item already exists in the keychain."),
            (errSecItemNotFound, -25300, "The specified item could not be found in the keychain."),
            (errSecNoSuchAttr, -25303, "The specified attribute does not exist."),
            (errSecNoSuchClass, -25306, "The specified item does not appear to be a valid keychain item."),
            (errSecInteractionNotAllowed, -25308, "User interaction is not allowed."),
            (errSecDecode, -26275, "Unable to decode the provided data."),
            (errSecMissingEntitlement, -34018, "A required entitlement isn't present."),
            (errSecRestrictedAPI, -34020, "Client is restricted and is not permitted to perform this operation."),
            // SecBase.h beyond the spec's table: the certificate, trust and CSSM ranges.
            (
                errSecCreateChainFailed, -25318,
                "One or more certificates required to validate this certificate cannot be found."
            ),
            (errSecServiceNotAvailable, -67585, "The required service is not available."),
            (errSecConversionError, -67594, "A conversion error has occurred."),
            (errSecNotTrusted, -67843, "The certificate was not trusted."),
            (errSecInvalidEncoding, -67853, "The encoding was not valid.")
        ]
        for (constant, value, message) in expected {
            XCTAssertEqual(constant, value)
            XCTAssertEqual(SecCopyErrorMessageString(value, nil) as String?, message)
        }
        XCTAssertEqual(
            SecCopyErrorMessageString(errSecInternalComponent, nil) as String?, "OSStatus -2070", "no string")
        XCTAssertEqual(SecCopyErrorMessageString(12345, nil) as String?, "OSStatus 12345")
        XCTAssertEqual(noErr, 0)
    }

    /// Exact signatures, assignable to function-typed variables.
    func testFunctionSignatures() {
        let add: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemAdd
        let copy: (CFDictionary, UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus = SecItemCopyMatching
        let update: (CFDictionary, CFDictionary) -> OSStatus = SecItemUpdate
        let delete: (CFDictionary) -> OSStatus = SecItemDelete
        let message: (OSStatus, UnsafeMutableRawPointer?) -> CFString? = SecCopyErrorMessageString
        XCTAssertNotNil([add, copy] as [Any] + [update, delete, message] as [Any])
        XCTAssertTrue(kCFBooleanTrue!.boolValue)
        XCTAssertFalse(kCFBooleanFalse!.boolValue)
    }

    /// Flags and validation of SecAccessControlCreateWithFlags.
    func testAccessControlFlagsAndValidation() throws {
        XCTAssertEqual(SecAccessControlCreateFlags.userPresence.rawValue, 1)
        XCTAssertEqual(SecAccessControlCreateFlags.biometryAny.rawValue, 2)
        XCTAssertEqual(SecAccessControlCreateFlags.biometryCurrentSet.rawValue, 8)
        XCTAssertEqual(SecAccessControlCreateFlags.devicePasscode.rawValue, 16)
        XCTAssertEqual(SecAccessControlCreateFlags.or.rawValue, 0x4000)
        XCTAssertEqual(SecAccessControlCreateFlags.and.rawValue, 0x8000)
        XCTAssertEqual(SecAccessControlCreateFlags.privateKeyUsage.rawValue, 0x4000_0000)
        XCTAssertEqual(SecAccessControlCreateFlags.applicationPassword.rawValue, 0x8000_0000)

        var error: Unmanaged<CFError>?
        let plain = try XCTUnwrap(
            SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, [], &error))
        XCTAssertEqual(plain.description, "<SecAccessControlRef: ak>")
        let again = try XCTUnwrap(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil))
        XCTAssertEqual(Set<AnyHashable>([plain, again]).count, 1, "Hashable: equal protections and flags are equal")
        let presence = try XCTUnwrap(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, nil))
        XCTAssertEqual(
            presence.description, "<SecAccessControlRef: akpu;od(cpol(DeviceOwnerAuthentication));odel(true);oe(true)>")

        let invalid: [(CFTypeRef, SecAccessControlCreateFlags)] = [
            (kSecAttrAccessibleWhenUnlocked, [.or, .and]),
            (kSecAttrAccessibleWhenUnlocked, [.biometryAny, .biometryCurrentSet]),
            (kSecAttrAccessibleWhenUnlocked, [.userPresence, .devicePasscode]),
            (NSString(string: "nonsense"), [])
        ]
        for (protection, flags) in invalid {
            error = nil
            XCTAssertNil(SecAccessControlCreateWithFlags(nil, protection, flags, &error))
            let cfError = try XCTUnwrap(error?.takeRetainedValue())
            XCTAssertEqual(CFErrorGetCode(cfError), Int(errSecParam))
            XCTAssertEqual(CFErrorGetDomain(cfError) as String, NSOSStatusErrorDomain)
            XCTAssertNotNil(CFErrorCopyUserInfo(cfError))
        }
        XCTAssertNotNil(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.userPresence, .privateKeyUsage], nil)
        )
    }

    func testRandomBytes() {
        var first = [UInt8](repeating: 0, count: 37)
        var second = [UInt8](repeating: 0, count: 37)
        XCTAssertEqual(SecRandomCopyBytes(kSecRandomDefault, first.count, &first), errSecSuccess)
        XCTAssertEqual(SecRandomCopyBytes(kSecRandomDefault, second.count, &second), errSecSuccess)
        XCTAssertNotEqual(first, second)
        XCTAssertNotEqual(first, [UInt8](repeating: 0, count: 37))
    }

    /// Keys as NSString (CFString) constants and values as Foundation objects are accepted too.
    func testFoundationObjectsInDictionaries() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: directory)
            SecItemEnvironment.reset()
        }
        SecItemEnvironment.useKeychain(try Keychain(location: KeychainLocation(directory: directory)))
        let dictionary = NSMutableDictionary()
        dictionary[kSecClass] = kSecClassGenericPassword
        dictionary[kSecAttrAccount] = NSString(string: "ns")
        dictionary[kSecValueData] = NSData(data: Data("v".utf8))
        dictionary[kSecAttrSynchronizable] = kCFBooleanFalse
        dictionary[kSecAttrPort as NSString] = NSNumber(value: 1)
        XCTAssertEqual(SecItemAdd(dictionary, nil), errSecNoSuchAttr, "port is not a generic-password attribute")
        dictionary.removeObject(forKey: kSecAttrPort)
        XCTAssertEqual(SecItemAdd(dictionary, nil), errSecSuccess)
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrAccount: "ns", kSecReturnData: kCFBooleanTrue!
        ]
        var result: CFTypeRef?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(result as? Data, Data("v".utf8))
    }
}

import KeychainCore
#endif
