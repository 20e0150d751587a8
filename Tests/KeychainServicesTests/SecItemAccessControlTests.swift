#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// `kSecAttrAccessControl` through the SecItem API: prompts only for data, Apple's statuses
/// for cancel / UI fail / UI skip, `kSecUseAuthenticationContext` reuse, and the flags returned.
final class SecItemAccessControlTests: AuthenticatedSecItemTestCase {
    func control(_ flags: SecAccessControlCreateFlags) -> SecAccessControl {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)!
    }

    func testDataPromptsAttributesDoNot() throws {
        XCTAssertEqual(add(password("alice", [kSecAttrAccessControl as String: control(.userPresence)])), errSecSuccess)
        let attributes = copy(password("alice", [kSecReturnAttributes as String: true]))
        XCTAssertEqual(attributes.status, errSecSuccess)
        let returned = try XCTUnwrap(
            (attributes.result as? NSDictionary)?[kSecAttrAccessControl as String] as? SecAccessControl)
        XCTAssertEqual(returned.flags, .userPresence)
        XCTAssertEqual(
            returned.description, "<SecAccessControlRef: aku;od(cpol(DeviceOwnerAuthentication));odel(true);oe(true)>")
        XCTAssertEqual(authenticator.prompts, 0)

        let data = copy(
            password("alice", [kSecReturnData as String: true, kSecUseOperationPrompt as String: "Unlock the vault"]))
        XCTAssertEqual(data.status, errSecSuccess)
        XCTAssertEqual(data.result as? Data, Data("secret".utf8))
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(authenticator.requests.first?.reason, "Unlock the vault")
    }

    func testCancelFailAndSkipStatuses() throws {
        XCTAssertEqual(add(password("alice", [kSecAttrAccessControl as String: control(.biometryAny)])), errSecSuccess)
        XCTAssertEqual(add(password("bob")), errSecSuccess)
        authenticator.script([.canceled, .failed])
        XCTAssertEqual(copy(password("alice", [kSecReturnData as String: true])).status, errSecUserCanceled)
        XCTAssertEqual(copy(password("alice", [kSecReturnData as String: true])).status, errSecAuthFailed)
        XCTAssertEqual(
            copy(
                password(
                    "alice",
                    [
                        kSecReturnData as String: true,
                        kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail
                    ])
            ).status, errSecInteractionNotAllowed)
        let skipped = copy([
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc",
            kSecReturnAttributes as String: true, kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip
        ])
        XCTAssertEqual(skipped.status, errSecSuccess)
        let accounts = (skipped.result as? [NSDictionary])?.compactMap { $0[kSecAttrAccount as String] as? String }
        XCTAssertEqual(accounts, ["bob"])
        XCTAssertEqual(authenticator.prompts, 2)
    }

    func testAuthenticationContextIsReused() throws {
        XCTAssertEqual(add(password("alice", [kSecAttrAccessControl as String: control(.userPresence)])), errSecSuccess)
        XCTAssertEqual(add(password("bob", [kSecAttrAccessControl as String: control(.userPresence)])), errSecSuccess)
        let context = LAContext()
        context.touchIDAuthenticationAllowableReuseDuration = 60
        for account in ["alice", "bob", "alice"] {
            let found = copy(
                password(account, [kSecReturnData as String: true, kSecUseAuthenticationContext as String: context]))
            XCTAssertEqual(found.status, errSecSuccess)
        }
        XCTAssertEqual(authenticator.prompts, 1)
        context.invalidate()
        XCTAssertEqual(
            copy(password("bob", [kSecReturnData as String: true, kSecUseAuthenticationContext as String: context]))
                .status, errSecAuthFailed)
        XCTAssertEqual(
            copy(
                password(
                    "bob", [kSecReturnData as String: true, kSecUseAuthenticationContext as String: "not a context"])
            ).status, errSecParam)
    }

    func testCurrentSetInvalidationAndUpdates() throws {
        XCTAssertEqual(
            add(password("alice", [kSecAttrAccessControl as String: control(.biometryCurrentSet)])), errSecSuccess)
        XCTAssertEqual(update(password("alice"), [kSecValueData as String: Data("new".utf8)]), errSecSuccess)
        XCTAssertEqual(authenticator.prompts, 0, "writing data never prompts")
        authenticator.enroll("another finger")
        XCTAssertEqual(copy(password("alice", [kSecReturnData as String: true])).status, errSecAuthFailed)
        XCTAssertEqual(authenticator.prompts, 0)
        XCTAssertEqual(SecItemDelete(password("alice") as CFDictionary), errSecSuccess, "deleting never prompts")
        XCTAssertEqual(
            add(password("alice", [kSecAttrAccessControl as String: control(.biometryCurrentSet)])), errSecSuccess)
        XCTAssertEqual(copy(password("alice", [kSecReturnData as String: true])).result as? Data, Data("secret".utf8))

        authenticator.script([.canceled])
        let plain = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil)!
        XCTAssertEqual(
            update(password("alice"), [kSecAttrAccessControl as String: plain]), errSecUserCanceled,
            "removing the protection needs the user")
        XCTAssertEqual(update(password("alice"), [kSecAttrAccessControl as String: plain]), errSecSuccess)
        let prompts = authenticator.prompts
        XCTAssertEqual(copy(password("alice", [kSecReturnData as String: true])).status, errSecSuccess)
        XCTAssertEqual(authenticator.prompts, prompts)
        XCTAssertEqual(
            add(
                password(
                    "sync",
                    [kSecAttrAccessControl as String: control(.userPresence), kSecAttrSynchronizable as String: true])),
            errSecParam)
    }
}
#endif
