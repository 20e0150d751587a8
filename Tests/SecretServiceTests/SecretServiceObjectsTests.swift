import Crypto
import CryptoExtras
import Foundation
import KeychainCore
import SecureStorageDBus
import XCTest

@testable import SecretService

/// The Secret Service object tree called directly (no bus): spec 0.2 behaviour, the keychain
/// mapping, lock state, sessions' owners, hostile arguments and sandboxed callers.
final class SecretServiceObjectsTests: XCTestCase {
    private let login = "/org/freedesktop/secrets/collection/login"
    private let service = SecretServiceNames.servicePath

    func testPlainSessionStoresSearchesAndReturnsTheSecret() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let session = try await harness.plainSession()
        let item = try await harness.createItem(
            label: "Mail", attributes: ["service": "mail", "username": "alice"], secret: Data("s3cret".utf8),
            session: session)
        XCTAssertTrue(item.hasPrefix(login + "/"))
        let found = try await harness.search(["service": "mail"])
        XCTAssertEqual(found, [item])
        let secret = try await harness.secret(of: item, session: session)
        XCTAssertEqual(secret, Data("s3cret".utf8))
        let value1 = try await harness.search(["service": "other"])
        XCTAssertEqual(value1, [])
    }

    /// Spec "Transfer of Secrets": dh-ietf1024-sha256-aes128-cbc-pkcs7, computed here as a client
    /// would (2^x mod p, HKDF-SHA256 of the 128-byte shared secret, AES-128-CBC-PKCS7).
    func testDHSessionCarriesSecretsEncrypted() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        try XCTSkipUnless(OakleyGroup2.isAvailable, "the system libcrypto is not available")
        let clientPrivate = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let clientPublic = try XCTUnwrap(OakleyGroup2.power([2], clientPrivate))
        let opened = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "OpenSession",
            [.string("dh-ietf1024-sha256-aes128-cbc-pkcs7"), .variant(SecretValue.byteArray(Data(clientPublic)))])
        let serverPublic = try XCTUnwrap(SecretValue.bytes(opened[0].unwrappingVariant))
        let session = try XCTUnwrap(opened[1].stringValue)
        let shared = try XCTUnwrap(OakleyGroup2.power([UInt8](serverPublic), clientPrivate))
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), info: Data(), outputByteCount: 16)

        let iv = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let plaintext = Data("pa$$word with some length".utf8)
        let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        let properties = DBusValue.dictionary(
            keySignature: "s", valueSignature: "v",
            [
                DBusDictionaryEntry(
                    key: .string("org.freedesktop.Secret.Item.Attributes"),
                    value: .variant(.stringDictionary(["service": "dh"])))
            ])
        let created = try await harness.reply(
            login, SecretServiceNames.collectionInterface, "CreateItem",
            [
                properties,
                SecretValue(session: session, parameters: Data(iv), value: ciphertext, contentType: "text/plain")
                    .dbusValue, .boolean(false)
            ])
        let item = try XCTUnwrap(created[0].stringValue)
        let got = try SecretValue(
            try await harness.reply(item, SecretServiceNames.itemInterface, "GetSecret", [.objectPath(session)])[0])
        XCTAssertEqual(got.parameters.count, 16)
        XCTAssertNotEqual(got.value, plaintext, "the secret crossed in clear")
        XCTAssertEqual(
            try AES._CBC.decrypt(got.value, using: key, iv: AES._CBC.IV(ivBytes: got.parameters)), plaintext)
    }

    /// An attacker's degenerate public keys (0, 1, p−1, p, p+1, over-long) never open a session.
    func testDegenerateClientKeysAreRefused() async throws {
        let harness = try SecretServiceHarness()
        try XCTSkipUnless(OakleyGroup2.isAvailable, "the system libcrypto is not available")
        var primeMinusOne = OakleyGroup2.prime
        primeMinusOne[127] -= 1
        let aboveThePrime = [UInt8](repeating: 0xFF, count: 128)
        for key in [[0], [1], [0, 0, 1], primeMinusOne, OakleyGroup2.prime, aboveThePrime, [1] + OakleyGroup2.prime] {
            let code = await harness.errorCode(
                service, SecretServiceNames.serviceInterface, "OpenSession",
                [.string("dh-ietf1024-sha256-aes128-cbc-pkcs7"), .variant(SecretValue.byteArray(Data(key)))])
            XCTAssertEqual(code, "org.freedesktop.DBus.Error.InvalidArgs", "key of \(key.count) bytes")
        }
        XCTAssertEqual(harness.objects.sessions.count, 0)
        let unknown = await harness.errorCode(
            service, SecretServiceNames.serviceInterface, "OpenSession", [.string("rot13"), .variant(.string(""))])
        XCTAssertEqual(unknown, "org.freedesktop.DBus.Error.NotSupported")
    }

    /// Issue 37 item 2: an item the tool adds is found by the attributes keyring searches, and an
    /// item created over D-Bus is found by service and account.
    func testToolItemsAndDBusItemsShareTheLoginCollection() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        try harness.keychain.add(
            NewItem(.genericPassword, attributes: [.service: "svc", .account: "alice"], data: Data("from-tool".utf8)))
        let session = try await harness.plainSession()
        let found = try await harness.search(["service": "svc", "username": "alice"])
        XCTAssertEqual(found.count, 1)
        let value2 = try await harness.secret(of: found[0], session: session)
        XCTAssertEqual(value2, Data("from-tool".utf8))

        _ = try await harness.createItem(
            label: "Password for 'bob' on 'web'",
            attributes: ["application": "Python keyring library", "service": "web", "username": "bob"],
            secret: Data("from-dbus".utf8), session: session)
        let stored = try await harness.keychain.find(
            Query(.genericPassword, [.service: "web", .account: "bob"]), returning: [.data, .attributes])
        XCTAssertEqual(stored.first?.data, Data("from-dbus".utf8))
        XCTAssertEqual(stored.first?.attributes[.accessGroup]?.stringValue, ApplicationIdentity.sharedGroup)
        XCTAssertEqual(stored.first?.attributes[.label]?.stringValue, "Password for 'bob' on 'web'")
    }

    /// Spec: several items may have equal attributes; `replace` replaces the one with equal attributes.
    func testEqualAttributesMakeDistinctItemsUnlessReplacing() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let session = try await harness.plainSession()
        let attributes = ["service": "dup", "username": "carol", "n": "1"]
        let first = try await harness.createItem(
            label: "a", attributes: attributes, secret: Data("1".utf8), session: session)
        let second = try await harness.createItem(
            label: "b", attributes: attributes, secret: Data("2".utf8), session: session)
        XCTAssertNotEqual(first, second)
        let value3 = try await harness.search(["service": "dup"])
        XCTAssertEqual(Set(value3), [first, second])
        let value4 = try await harness.secret(of: first, session: session)
        XCTAssertEqual(value4, Data("1".utf8))
        let value5 = try await harness.secret(of: second, session: session)
        XCTAssertEqual(value5, Data("2".utf8))
        let duplicates = try await harness.keychain.findAll(
            Query(.genericPassword, [.service: "dup", .account: "carol"]))
        XCTAssertEqual(duplicates.count, 2)
        let replaced = try await harness.createItem(
            label: "c", attributes: attributes, secret: Data("3".utf8), session: session, replace: true)
        XCTAssertTrue([first, second].contains(replaced))
        let value6 = try await harness.search(["service": "dup"]).count
        XCTAssertEqual(value6, 2)
        let value7 = try await harness.secret(of: replaced, session: session)
        XCTAssertEqual(value7, Data("3".utf8))
    }

    /// Issue 37 item 3: locked, nothing is revealed, and Unlock's prompt is dismissed within 2 s
    /// when no prompter exists.
    func testLockedKeychainAnswersDismissedWithinTwoSeconds() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let session = try await harness.plainSession()
        let item = try await harness.createItem(
            label: "x", attributes: ["service": "locked"], secret: Data("hidden".utf8), session: session)
        try harness.keychain.lock()

        let value8 = try await harness.search(["service": "locked"])
        XCTAssertEqual(value8, [])
        let getSecret = await harness.errorCode(item, nil, "GetSecret", [.objectPath(session)])
        XCTAssertEqual(getSecret, "org.freedesktop.Secret.Error.IsLocked")
        let locked = try await harness.reply(
            login, "org.freedesktop.DBus.Properties", "Get",
            [
                .string(SecretServiceNames.collectionInterface), .string("Locked")
            ])
        XCTAssertEqual(locked, [.variant(.boolean(true))])
        let secrets = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "GetSecrets", [.objectPaths([item]), .objectPath(session)])
        XCTAssertEqual(secrets, [.dictionary(keySignature: "o", valueSignature: "(oayays)", [])])

        let start = ContinuousClock.now
        let unlock = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "Unlock", [.objectPaths([login])])
        XCTAssertEqual(unlock[0], .objectPaths([]))
        let prompt = try XCTUnwrap(unlock[1].stringValue)
        XCTAssertTrue(prompt.hasPrefix(SecretServiceNames.promptPrefix))
        _ = try await harness.reply(prompt, SecretServiceNames.promptInterface, "Prompt", [.string("")])
        let completed = await harness.signals.wait(for: "Completed", path: prompt)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        XCTAssertEqual(completed?.body, [.boolean(true), .variant(.objectPaths([]))])
        XCTAssertEqual(completed?.destination, ":1.10")
    }

    /// An unlock by another process completes a prompt that is waiting for a prompter.
    func testUnlockElsewhereCompletesAPendingPrompt() async throws {
        let harness = try SecretServiceHarness()
        harness.unlocker.setBehaviour(.waitsForUnlockElsewhere)
        let unlock = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "Unlock", [.objectPaths([login])])
        let prompt = try XCTUnwrap(unlock[1].stringValue)
        _ = try await harness.reply(prompt, SecretServiceNames.promptInterface, "Prompt", [.string("")])
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertTrue(harness.signals.all.filter { $0.member == "Completed" }.isEmpty, "completed before the unlock")
        try harness.unlocker.unlockElsewhere()
        let completed = await harness.signals.wait(for: "Completed", path: prompt)
        XCTAssertEqual(completed?.body, [.boolean(false), .variant(.objectPaths([login]))])
        XCTAssertEqual(harness.objects.prompts.count, 0)
    }

    /// With a prompter that grants, `Unlock` then `Prompt` unlocks the keychain.
    func testPrompterThatGrantsUnlocks() async throws {
        let harness = try SecretServiceHarness()
        harness.unlocker.setBehaviour(.grants)
        let unlock = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "Unlock", [.objectPaths([login])])
        let prompt = try XCTUnwrap(unlock[1].stringValue)
        _ = try await harness.reply(prompt, SecretServiceNames.promptInterface, "Prompt", [.string("x11:0")])
        let completed = await harness.signals.wait(for: "Completed", path: prompt)
        XCTAssertEqual(completed?.body, [.boolean(false), .variant(.objectPaths([login]))])
        XCTAssertEqual(harness.keychain.lockState, .unlocked)
        XCTAssertEqual(harness.unlocker.requestCount, 1)
    }

    /// Sessions and prompts belong to their caller: another unique name gets NoSession /
    /// UnknownObject, and a caller leaving the bus closes them.
    func testSessionsAndPromptsBelongToTheirCaller() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let session = try await harness.plainSession()
        let item = try await harness.createItem(
            label: "x", attributes: ["service": "mine"], secret: Data("mine".utf8), session: session)
        let thief = SecretServiceHarness.caller(":1.99")
        let stolen = await harness.errorCode(item, nil, "GetSecret", [.objectPath(session)], as: thief)
        XCTAssertEqual(stolen, "org.freedesktop.Secret.Error.NoSession")
        let closeOther = await harness.errorCode(session, SecretServiceNames.sessionInterface, "Close", as: thief)
        XCTAssertEqual(closeOther, "org.freedesktop.DBus.Error.UnknownObject")

        try harness.keychain.lock()
        let unlock = try await harness.reply(
            service, SecretServiceNames.serviceInterface, "Unlock", [.objectPaths([login])])
        let prompt = try XCTUnwrap(unlock[1].stringValue)
        let otherPrompt = await harness.errorCode(
            prompt, SecretServiceNames.promptInterface, "Prompt", [.string("")], as: thief)
        XCTAssertEqual(otherPrompt, "org.freedesktop.DBus.Error.UnknownObject")
        harness.objects.clientLeft(":1.10")
        XCTAssertEqual(harness.objects.sessions.count, 0)
        XCTAssertEqual(harness.objects.prompts.count, 0)
    }

    /// Hostile calls get precise errors and change nothing.
    func testHostileCallsGetErrors() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let invalid = "org.freedesktop.DBus.Error.InvalidArgs"
        let wrongSignature1 = await harness.errorCode(service, nil, "SearchItems", [.string("x")])
        XCTAssertEqual(wrongSignature1, invalid)
        let wrongSignature2 = await harness.errorCode(service, nil, "OpenSession", [])
        XCTAssertEqual(wrongSignature2, invalid)
        let wrongSignature3 = await harness.errorCode(login, nil, "CreateItem", [.uint32(1), .boolean(true)])
        XCTAssertEqual(wrongSignature3, invalid)
        let wrongSignature4 = await harness.errorCode(
            service, "org.freedesktop.DBus.Properties", "Get", [.int32(1), .int32(2)])
        XCTAssertEqual(wrongSignature4, invalid)
        let huge = Dictionary(uniqueKeysWithValues: (0..<5000).map { ("k\($0)", String(repeating: "v", count: 20)) })
        let hugeSearch = await harness.errorCode(service, nil, "SearchItems", [.stringDictionary(huge)])
        XCTAssertEqual(hugeSearch, invalid)
        let session = try await harness.plainSession()
        let hugeSecret = SecretValue(
            session: session, parameters: Data(), value: Data(count: 2 << 20), contentType: "text/plain")
        let hugeCreate = await harness.errorCode(
            login, nil, "CreateItem",
            [.dictionary(keySignature: "s", valueSignature: "v", []), hugeSecret.dbusValue, .boolean(false)])
        XCTAssertEqual(hugeCreate, invalid)
        let unknownPath = await harness.errorCode("/org/freedesktop/secrets/collection/nope", nil, "Delete")
        XCTAssertEqual(unknownPath, "org.freedesktop.DBus.Error.UnknownObject")
        let unknownItem = await harness.errorCode(login + "/0123456789abcdef0123456789abcdef", nil, "Delete")
        XCTAssertEqual(unknownItem, "org.freedesktop.DBus.Error.UnknownObject")
        let unknownMethod = await harness.errorCode(service, SecretServiceNames.serviceInterface, "Explode")
        XCTAssertEqual(unknownMethod, "org.freedesktop.DBus.Error.UnknownMethod")
        let noSession = await harness.errorCode(
            service, nil, "GetSecrets", [.objectPaths([]), .objectPath("/org/freedesktop/secrets/session/s999")])
        XCTAssertEqual(noSession, "org.freedesktop.Secret.Error.NoSession")
        // A client opening sessions without end holds at most sessionsPerClient: the least recently
        // used goes (secretstorage opens one per item it reads).
        let first = try await harness.plainSession()
        let second = try await harness.plainSession()
        for _ in 0..<SessionRegistry.sessionsPerClient { _ = try await harness.plainSession() }
        XCTAssertEqual(
            harness.objects.sessions.paths(of: SecretServiceHarness.caller().uniqueName).count,
            SessionRegistry.sessionsPerClient)
        XCTAssertFalse(harness.objects.sessions.exists(first, caller: SecretServiceHarness.caller().uniqueName))
        XCTAssertFalse(harness.objects.sessions.exists(second, caller: SecretServiceHarness.caller().uniqueName))
        let value9 = try await harness.search([:])
        XCTAssertEqual(value9, [])
    }

    /// Issue 37 item 4: a Flatpak app sees and changes only its own items.
    func testSandboxedCallerSeesOnlyItsOwnItems() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let user = SecretServiceHarness.caller(":1.20")
        let app = SecretServiceHarness.caller(":1.21", flatpak: "org.example.App")
        let other = SecretServiceHarness.caller(":1.22", flatpak: "org.example.Other")
        let userSession = try await harness.plainSession(as: user)
        let userItem = try await harness.createItem(
            label: "user", attributes: ["service": "shared"], secret: Data("user".utf8), session: userSession, as: user)
        let appSession = try await harness.plainSession(as: app)
        let appItem = try await harness.createItem(
            label: "app", attributes: ["service": "shared"], secret: Data("app".utf8), session: appSession, as: app)
        let created = harness.signals.all.filter { $0.member == "ItemCreated" }
        XCTAssertEqual(created.first { $0.body == [.objectPath(appItem)] }?.destination, ":1.21")
        XCTAssertEqual(created.count, 2)
        XCTAssertNil(created.first { $0.body == [.objectPath(userItem)] }?.destination)

        let value10 = try await harness.search(["service": "shared"], as: app)
        XCTAssertEqual(value10, [appItem])
        let value11 = try await harness.search(["service": "shared"], as: other)
        XCTAssertEqual(value11, [])
        let value12 = try await harness.search(["service": "shared"], as: user)
        XCTAssertEqual(Set(value12), [userItem])
        let readUser = await harness.errorCode(userItem, nil, "GetSecret", [.objectPath(appSession)], as: app)
        XCTAssertEqual(readUser, "org.freedesktop.DBus.Error.UnknownObject")
        let deleteUser = await harness.errorCode(userItem, nil, "Delete", as: app)
        XCTAssertEqual(deleteUser, "org.freedesktop.DBus.Error.UnknownObject")
        let create = await harness.errorCode(
            service, nil, "CreateCollection", [.dictionary(keySignature: "s", valueSignature: "v", []), .string("")],
            as: app)
        XCTAssertEqual(create, "org.freedesktop.DBus.Error.AccessDenied")
        let value13 = try await harness.secret(of: appItem, session: appSession, as: app)
        XCTAssertEqual(value13, Data("app".utf8))
        let stored = try await harness.keychain.find(Query(.genericPassword, [.service: "shared"]))
        XCTAssertEqual(
            Set(stored.compactMap { $0.attributes[.accessGroup]?.stringValue }),
            [ApplicationIdentity.sharedGroup, "flatpak:org.example.App"])
    }

    /// CreateCollection makes a persistent collection; aliases resolve; labels are settable.
    func testCreatedCollectionsAndAliases() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let properties = DBusValue.dictionary(
            keySignature: "s", valueSignature: "v",
            [
                DBusDictionaryEntry(
                    key: .string("org.freedesktop.Secret.Collection.Label"), value: .variant(.string("My Label")))
            ])
        let created = try await harness.reply(service, nil, "CreateCollection", [properties, .string("work")])
        let path = try XCTUnwrap(created[0].stringValue)
        XCTAssertEqual(path, "/org/freedesktop/secrets/collection/my_label")
        let alias = try await harness.reply(service, nil, "ReadAlias", [.string("work")])
        XCTAssertEqual(alias, [.objectPath(path)])
        let defaultAlias = try await harness.reply(service, nil, "ReadAlias", [.string("default")])
        XCTAssertEqual(defaultAlias, [.objectPath(login)])
        let missing = try await harness.reply(service, nil, "ReadAlias", [.string("nothing")])
        XCTAssertEqual(missing, [.objectPath("/")])
        let session = try await harness.plainSession()
        let item = try await harness.createItem(
            label: "w", attributes: ["k": "v"], secret: Data("w".utf8), session: session, collection: path)
        XCTAssertTrue(item.hasPrefix(path + "/"))
        _ = try await harness.reply(
            path, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(SecretServiceNames.collectionInterface), .string("Label"), .variant(.string("Renamed"))
            ])
        // A new object tree over the same keychain (a restarted agent) still has it.
        let restarted = SecretServiceObjects(
            keychain: harness.keychain, unlocker: harness.unlocker, loginGroup: ApplicationIdentity.sharedGroup,
            signals: RecordedSignals())
        let label = await restarted.handle(
            path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            body: [.string(SecretServiceNames.collectionInterface), .string("Label")],
            caller: SecretServiceHarness.caller())
        XCTAssertEqual(try label.get(), [.variant(.string("Renamed"))])
        _ = try await harness.reply(path, nil, "Delete")
        let value14 = try await harness.search(["k": "v"])
        XCTAssertEqual(value14, [])
        let deleteLogin = await harness.errorCode(login, nil, "Delete")
        XCTAssertEqual(deleteLogin, "org.freedesktop.DBus.Error.AccessDenied")
    }

    /// Introspection lists interfaces and child nodes, and refuses unknown paths.
    func testIntrospectionListsInterfacesAndChildren() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let root = try await harness.reply("/", "org.freedesktop.DBus.Introspectable", "Introspect")
        XCTAssertTrue(root.first?.stringValue?.contains("<node name=\"org\"/>") == true)
        let serviceXML = try await harness.reply(service, "org.freedesktop.DBus.Introspectable", "Introspect")
        let xml = try XCTUnwrap(serviceXML.first?.stringValue)
        for needle in ["org.freedesktop.Secret.Service", "<node name=\"collection\"/>", "<node name=\"aliases\"/>"] {
            XCTAssertTrue(xml.contains(needle), needle)
        }
        let collections = try await harness.reply(
            "/org/freedesktop/secrets/collection", "org.freedesktop.DBus.Introspectable", "Introspect")
        XCTAssertTrue(collections.first?.stringValue?.contains("<node name=\"login\"/>") == true)
        let unknown = await harness.errorCode("/elsewhere", "org.freedesktop.DBus.Introspectable", "Introspect")
        XCTAssertEqual(unknown, "org.freedesktop.DBus.Error.UnknownObject")
    }

    /// `/.flatpak-info` parsing: the app id, or nothing for a malformed one.
    func testFlatpakInfoParsing() {
        XCTAssertEqual(
            FlatpakInfo.applicationName(in: "[Application]\nname=org.example.App\nruntime=x\n"), "org.example.App")
        XCTAssertNil(FlatpakInfo.applicationName(in: "[Instance]\nname=org.example.App\n"))
        XCTAssertNil(FlatpakInfo.applicationName(in: "[Application]\nname=../../etc\n/x"))
        XCTAssertEqual(
            ProcessInspector.systemdUnit(cgroup: "0::/user.slice/user-1000.slice/app-foo.scope\n"), "app-foo.scope")
    }
}
