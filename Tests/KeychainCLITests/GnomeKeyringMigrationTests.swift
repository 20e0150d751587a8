import AttackTestSupport
import Foundation
import XCTest

/// `keychain migrate --from gnome-keyring` on keyring files the real gnome-keyring-daemon wrote
/// in the test (``GnomeKeyringDaemon``): every item arrives with its secret, label and
/// attributes; a second item with equal attributes keeps the service and account and gets a
/// duplicate view hint; a second run skips them; a wrong password, a damaged or crafted file
/// imports nothing and changes nothing; a conflict is reported and kept unless --overwrite; a
/// killed run finishes when run again.
final class GnomeKeyringMigrationTests: CLITestCase {
    static let password = "correct horse ✓"

    /// The login keyring: item 1 by secret-tool, 2 a second item with the same attributes, 3 a
    /// network password, 4 a binary secret with unusual attributes.
    private func makeLoginKeyring(preloaded: [String: String] = [:], shell: String = "", extraItems: String = "")
        throws -> GnomeKeyringDaemon
    {
        let directory = scratch.appendingPathComponent("gnome")
        let keyrings = directory.appendingPathComponent("data/keyrings")
        try FileManager.default.createDirectory(
            at: keyrings, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, text) in preloaded {
            XCTAssertTrue(
                FileManager.default.createFile(
                    atPath: keyrings.appendingPathComponent(name).path, contents: Data(text.utf8),
                    attributes: [.posixPermissions: 0o600]))
        }
        return try GnomeKeyringDaemon.populate(
            in: directory, password: Self.password,
            shell: "printf 'hunter2' | secret-tool store --label='First' service svc username alice\n" + shell,
            items: """
                collection.create_item('Dup one', {'service': 'svc', 'username': 'alice'}, b'first-dup', replace=False)
                collection.create_item('Mail', {'xdg:schema': 'org.gnome.keyring.NetworkPassword', \
                'server': 'mail.example.com', 'protocol': 'imap', 'port': '993', 'user': 'bob'}, \
                'pässword ✓'.encode(), replace=False)
                collection.create_item('Odd ✓', {'xdg:schema': 'org.example.Odd', 'weird key': 'välue\\nline', \
                'empty': ''}, bytes([0, 255, 1, 2]), replace=False)

                """ + extraItems)
    }

    /// Runs `keychain migrate --from gnome-keyring …` with `XDG_DATA_HOME` at `dataHome`.
    private func migrate(_ dataHome: URL, _ arguments: [String], input: String = "") throws -> CLIResult {
        try run(
            ["migrate", "--from", "gnome-keyring"] + arguments, input: Data(input.utf8),
            changing: ["XDG_DATA_HOME": dataHome.path])
    }

    private func secret(_ service: String, _ account: String) throws -> String {
        let result = try keychain("find-generic-password", "-s", service, "-a", account, "-w")
        XCTAssertStatus(result, 0)
        return result.stdout
    }

    /// The view hint of item `id` of the login keyring when its service and account equal an
    /// earlier item's, spelled out (not computed by the code under test).
    private static func duplicateHint(_ id: Int) -> String {
        "org.freedesktop.secrets.duplicate.gnome-keyring.login.\(id)"
    }

    /// The item's kSecAttrGeneric decoded as the documented SecretServiceAttributes layout.
    private func attributes(_ service: String, _ account: String) throws -> [String: String] {
        let result = try keychain("find-generic-password", "-s", service, "-a", account, "-g")
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.contains("\"gena\"<blob>=0x") })
        let hex = Array(line.split(separator: "=").last!.dropFirst(2).utf8)
        return try decodeAttributes(
            stride(from: 0, to: hex.count, by: 2).map {
                UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
            })
    }

    /// The one item whose view hint (`vwht`) is `viewHint`, from `dump-keychain -d --json` (no
    /// tool query names a view hint): its service, account, secret and decoded kSecAttrGeneric.
    private func item(withViewHint viewHint: String, changing changes: [String: String?] = [:]) throws -> (
        service: String, account: String, secret: String, attributes: [String: String]
    ) {
        let dump = try run(["dump-keychain", "-d", "--json"], input: Data(), changing: changes)
        XCTAssertStatus(dump, 0)
        let matches = try XCTUnwrap(try dump.json()["items"] as? [[String: Any]]).filter {
            ($0["attributes"] as? [String: Any])?["vwht"] as? String == viewHint
        }
        XCTAssertEqual(matches.count, 1, dump.stdout)
        let attributes = try XCTUnwrap(matches.first?["attributes"] as? [String: Any])
        let generic = try XCTUnwrap((attributes["gena"] as? [String: Any])?["base64"] as? String)
        return (
            try XCTUnwrap(attributes["svce"] as? String), try XCTUnwrap(attributes["acct"] as? String),
            try XCTUnwrap(matches.first?["data"] as? String),
            try decodeAttributes(Array(try XCTUnwrap(Data(base64Encoded: generic))))
        )
    }

    /// The documented SecretServiceAttributes layout, by the test's own reader: "SSA", 1, a
    /// count, then sorted length-prefixed name/value pairs.
    private func decodeAttributes(_ bytes: [UInt8]) throws -> [String: String] {
        XCTAssertEqual(Array(bytes.prefix(4)), Array("SSA".utf8) + [1])
        var offset = 4
        func integer() -> Int {
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func text() -> String {
            let length = integer()
            defer { offset += length }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
        var pairs: [String: String] = [:]
        var names: [String] = []
        for _ in 0..<integer() {
            let name = text()
            names.append(name)
            pairs[name] = text()
        }
        XCTAssertEqual(offset, bytes.count)
        XCTAssertEqual(names, names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        return pairs
    }

    private var itemCount: Int {
        get throws {
            let listed = try keychain("list", "--json")
            guard listed.status == 0, let items = try listed.json()["items"] as? [Any] else { return 0 }
            return items.count
        }
    }

    func testImportsEveryItemTheDaemonWroteAndASecondRunSkipsThem() throws {
        let daemon = try makeLoginKeyring()
        let original = try Data(contentsOf: daemon.loginKeyring)

        let dryRun = try migrate(daemon.dataHome, [], input: Self.password + "\n")
        XCTAssertStatus(dryRun, 0)
        XCTAssertTrue(dryRun.stderr.contains("dry run: nothing changed. With --apply: 4 imported"), dryRun.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: home.path + "/data/keychain.db"), "a dry run creates nothing")

        let applied = try migrate(daemon.dataHome, ["--apply"], input: Self.password + "\n")
        XCTAssertStatus(applied, 0)
        XCTAssertTrue(applied.stderr.contains("4 imported, 0 skipped"), applied.stderr)
        XCTAssertFalse(applied.stderr.contains("hunter2") || applied.stdout.contains("hunter2"))
        XCTAssertTrue(
            applied.stdout.contains(
                "login/2  → service svc, account alice, view hint \(Self.duplicateHint(2))  [import]"),
            applied.stdout)
        XCTAssertTrue(applied.stdout.contains("login/1  → service svc, account alice  [import]"), applied.stdout)
        XCTAssertTrue(
            applied.stderr.contains(
                "note: 1 item has the same service and account as an earlier one and keeps them; it is told apart by the view hint (kSecAttrSyncViewHint) org.freedesktop.secrets.duplicate.gnome-keyring.KEYRING.ID"
            ), applied.stderr)

        // A query naming service and account (no view hint) finds the first item of the two.
        XCTAssertEqual(try secret("svc", "alice"), "hunter2\n")
        XCTAssertEqual(
            try attributes("svc", "alice"),
            ["service": "svc", "username": "alice", "xdg:schema": "org.freedesktop.Secret.Generic"])
        // The second item with the same attributes: the same service and account, told apart by
        // its view hint. Created without xdg:schema: gnome-keyring serves the one of its item
        // type (generic).
        let duplicate = try item(withViewHint: Self.duplicateHint(2))
        XCTAssertEqual(duplicate.service, "svc")
        XCTAssertEqual(duplicate.account, "alice")
        XCTAssertEqual(duplicate.secret, "first-dup")
        XCTAssertEqual(
            duplicate.attributes,
            ["service": "svc", "username": "alice", "xdg:schema": "org.freedesktop.Secret.Generic"])
        XCTAssertEqual(try secret("imap://mail.example.com:993", "bob"), "pässword ✓\n")
        let odd = try keychain("find-generic-password", "-s", "login", "-a", "", "-g")
        XCTAssertTrue(odd.stderr.contains("password: 0x00FF0102"), odd.stderr)
        XCTAssertTrue(odd.stdout.contains("\"labl\"<blob>=\"Odd ✓\""), odd.stdout)
        XCTAssertEqual(
            try attributes("login", ""), ["xdg:schema": "org.example.Odd", "weird key": "välue\nline", "empty": ""])
        XCTAssertEqual(try itemCount, 4)
        // `list` shows both items of svc / alice; its JSON has the duplicate's view hint.
        let listed = try XCTUnwrap(try keychain("list", "--json").json()["items"] as? [[String: Any]])
        let svcAlice = listed.compactMap { $0["attributes"] as? [String: Any] }.filter {
            $0["svce"] as? String == "svc" && $0["acct"] as? String == "alice"
        }
        XCTAssertEqual(svcAlice.map { $0["vwht"] as? String }, [nil, Self.duplicateHint(2)])

        let again = try migrate(daemon.dataHome, ["--apply", "--json"], input: Self.password + "\n")
        XCTAssertStatus(again, 0)
        XCTAssertTrue(again.stderr.contains("0 imported, 4 skipped"), again.stderr)
        let planned = try XCTUnwrap(try again.json()["items"] as? [[String: Any]])
        XCTAssertEqual(planned.map { $0["action"] as? String }, ["skip", "skip", "skip", "skip"])
        XCTAssertEqual(planned.map { $0["account"] as? String }, ["alice", "alice", "bob", ""])
        XCTAssertEqual(planned.map { $0["duplicate"] as? Bool }, [false, true, false, false])
        XCTAssertEqual(planned.map { $0["viewHint"] as? String }, [nil, Self.duplicateHint(2), nil, nil])
        XCTAssertTrue(planned.allSatisfy { $0.keys.contains("viewHint") }, "null when there is none")
        XCTAssertEqual(try itemCount, 4)
        XCTAssertEqual(try Data(contentsOf: daemon.loginKeyring), original, "the keyring file is never changed")

        // Deleting by service and account deletes the item and its duplicate.
        let deleted = try keychain("delete-generic-password", "-s", "svc", "-a", "alice")
        XCTAssertStatus(deleted, 0)
        XCTAssertTrue(deleted.stderr.contains("deleted 2 items"), deleted.stderr)
        XCTAssertEqual(try itemCount, 2)
    }

    /// A copy of the login keyring's bytes changed by `change`, alone in a fresh XDG_DATA_HOME.
    private func dataHome(_ name: String, _ contents: Data) throws -> URL {
        let dataHome = scratch.appendingPathComponent("variant-\(name)")
        let keyrings = dataHome.appendingPathComponent("keyrings")
        try FileManager.default.createDirectory(
            at: keyrings, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try contents.write(to: keyrings.appendingPathComponent("login.keyring"))
        return dataHome
    }

    func testWrongPasswordDamageAndCraftedFilesImportNothing() throws {
        let daemon = try makeLoginKeyring()
        let good = try Data(contentsOf: daemon.loginKeyring)
        let nameLength = Int(good[16 + 4 + 3])  // the name is shorter than 256 bytes
        let itemCountOffset = 16 + 4 + 4 + nameLength + 16 + 4 + 4 + 4 + 8 + 16
        let iterationsOffset = itemCountOffset - 16 - 8 - 4
        func changed(_ body: (inout Data) -> Void) -> Data {
            var copy = good
            body(&copy)
            return copy
        }
        let serviceName = try XCTUnwrap(good.range(of: Data("service".utf8)))
        // The encrypted block is the file's tail; its length precedes it.
        let lengthOffset = try XCTUnwrap(
            (0..<good.count - 4).last { offset in
                let length = good[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                return length > 0 && length % 16 == 0 && offset + 4 + length == good.count
            })
        let blockStart = lengthOffset + 4
        let cases: [(String, Data, String, Int32, String)] = [
            ("wrong password", good, "wrong", 50, "Wrong password for keyring 'login'"),
            ("empty password", good, "", 50, "Wrong password for keyring 'login'"),
            ("password in another case", good, "Correct horse ✓", 50, "Wrong password for keyring 'login'"),
            ("truncated", good.dropLast(20), Self.password, 65, "cut short in the encrypted block"),
            (
                "ciphertext bit flipped",
                changed { $0[blockStart + 4] ^= 1 }, Self.password, 65, "does not match its checksum"
            ),
            (
                "ciphertext byte changed in the middle",
                changed { $0[blockStart + (good.count - blockStart) / 2] ^= 0x5A }, Self.password, 65,
                "decrypts but does not match its checksum"
            ),
            (
                "index hash changed",
                changed { data in
                    let hexAt = serviceName.upperBound + 8
                    data[hexAt] = data[hexAt] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
                }, Self.password, 65, "attributes differ from its index"
            ),
            (
                "huge item count",
                changed { $0.replaceSubrange(itemCountOffset..<itemCountOffset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF]) },
                Self.password, 65, "the item count 4294967295 is more than its remaining"
            ),
            (
                "huge iteration count",
                changed { $0.replaceSubrange(iterationsOffset..<iterationsOffset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF]) },
                Self.password, 65, "hash iteration count 4294967295 is outside"
            ),
            (
                "not a keyring", Data((0..<600).map { UInt8($0 % 251) }), Self.password, 65,
                "neither the binary nor the textual"
            )
        ]
        for (name, contents, password, status, message) in cases {
            let dataHome = try dataHome(name.replacingOccurrences(of: " ", with: "-"), contents)
            let started = Date()
            let result = try migrate(dataHome, ["--apply"], input: password + "\n")
            XCTAssertLessThan(Date().timeIntervalSince(started), 30, name)
            XCTAssertStatus(result, status)
            XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains(Self.password) || result.stderr.contains("hunter2"), name)
            XCTAssertEqual(try itemCount, 0, "\(name): nothing imported")
            XCTAssertEqual(
                try Data(contentsOf: dataHome.appendingPathComponent("keyrings/login.keyring")), contents,
                "\(name): the file is untouched")
        }
        XCTAssertEqual(try Data(contentsOf: daemon.loginKeyring), good)
    }

    /// Random corruption of a real keyring file (a flipped bit, a changed byte, a cut) never
    /// crashes or hangs the tool and never imports wrong data: it is refused (50 or 65, with the
    /// precise message), or — when it hit a field the format does not protect (times, flags,
    /// reserved) — imported with every secret exactly as the daemon stored it.
    func testRandomCorruptionIsRefusedOrHarmless() throws {
        let daemon = try makeLoginKeyring()
        let good = try Data(contentsOf: daemon.loginKeyring)
        var generator = SplitMix64(seed: 0x6E6F_6D65)
        var outcomes: [Int32: Int] = [:]
        for round in 0..<30 {
            var bad = good
            switch round % 3 {
            case 0:
                bad[Int.random(in: 16..<bad.count, using: &generator)] ^=
                    1 << UInt8.random(in: 0..<8, using: &generator)
            case 1:
                bad[Int.random(in: 16..<bad.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            default: bad = bad.prefix(Int.random(in: 16..<bad.count, using: &generator))
            }
            let dataHome = try dataHome("random-\(round)", bad)
            let roundHome = scratch.appendingPathComponent("random-home-\(round)").path
            let result = try run(
                ["migrate", "--from", "gnome-keyring", "--apply"], input: Data((Self.password + "\n").utf8),
                changing: ["XDG_DATA_HOME": dataHome.path, "SECURE_STORAGE_HOME": roundHome])
            outcomes[result.status, default: 0] += 1
            XCTAssertFalse(result.stderr.contains("hunter2") || result.stderr.contains(Self.password), "round \(round)")
            switch result.status {
            case 0:
                let found = try run(
                    ["find-generic-password", "-s", "svc", "-a", "alice", "-w"], input: Data(),
                    changing: ["SECURE_STORAGE_HOME": roundHome])
                XCTAssertEqual(found.stdout, "hunter2\n", "round \(round): imported, so exactly as stored")
            case 50: XCTAssertTrue(result.stderr.contains("Wrong password for keyring 'login'"), result.stderr)
            case 65: XCTAssertTrue(result.stderr.contains("GNOME keyring file of keyring 'login'"), result.stderr)
            default: XCTFail("round \(round): status \(result.status): \(result.stderr)")
            }
        }
        XCTAssertGreaterThan(outcomes[65, default: 0], 10, "most corruption is detected: \(outcomes)")
    }

    /// The binary format's less common parts — a uint32 attribute, an item without a display
    /// name, access-control entries, a legacy item type — which the daemon only writes for
    /// keyrings made by older clients: the test writes such a file (Python, `cryptography`, from
    /// the format as gnome-keyring's source describes it), has the real daemon unlock and serve
    /// it, and checks that the import holds exactly the attributes the daemon served.
    func testBinaryKeyringWithUInt32AttributesTheDaemonReads() throws {
        let (_, python) = try GnomeKeyringDaemon.requirePrograms()
        let directory = scratch.appendingPathComponent("gnome")
        let keyrings = directory.appendingPathComponent("data/keyrings")
        try FileManager.default.createDirectory(
            at: keyrings, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let writer = directory.appendingPathComponent("write-keyring.py")
        try #"""
        import hashlib, os, struct, sys
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        def u32(n): return struct.pack('>I', n)
        def text(x): return u32(0xFFFFFFFF) if x is None else u32(len(x.encode())) + x.encode()
        def uint32_hash(x): return 0x18273645 ^ x ^ (((x << 16) | (x >> 16)) & 0xFFFFFFFF)
        def attributes(pairs, hashed):
            out = u32(len(pairs))
            for name, value in pairs:
                out += text(name)
                if isinstance(value, int):
                    out += u32(1) + u32(uint32_hash(value) if hashed else value)
                else:
                    out += u32(0) + text(hashlib.md5(value.encode()).hexdigest() if hashed else value)
            return out

        items = [
            (11, 0, None, b's-eleven', [('service', 'bin-svc'), ('username', 'dave'), ('port', 8443)],
             [(7, 'app', '/usr/bin/app')]),
            (12, 2, 'Zwölf', b'\x00\x01binary', [], []),
        ]
        password, salt, iterations = sys.argv[2].encode(), os.urandom(8), 1234
        header = b'GnomeKeyring\n\r\x00\n' + bytes(4) + text('Login') + bytes(16) + u32(0) + u32(0)
        header += u32(iterations) + salt + bytes(16) + u32(len(items))
        for ident, kind, label, secret, pairs, acl in items:
            header += u32(ident) + u32(kind) + attributes(pairs, True)
        body = b''
        for ident, kind, label, secret, pairs, acl in items:
            body += text(label) + u32(len(secret)) + secret + bytes(16) + text(None) + bytes(16)
            body += attributes(pairs, False) + u32(len(acl))
            for allowed, name, path in acl:
                body += u32(allowed) + text(name) + text(path) + text(None) + u32(0)
        body += bytes(-len(body) % 16)
        block = hashlib.md5(body).digest() + body
        digest = hashlib.sha256(password + salt).digest()
        for _ in range(iterations - 1):
            digest = hashlib.sha256(digest).digest()
        encryptor = Cipher(algorithms.AES(digest[:16]), modes.CBC(digest[16:])).encryptor()
        encrypted = encryptor.update(block) + encryptor.finalize()
        with open(sys.argv[1], 'wb') as out:
            out.write(header + u32(len(encrypted)) + encrypted)
        """#.write(to: writer, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [writer.path, keyrings.appendingPathComponent("login.keyring").path, Self.password]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the Python writer failed")

        let served = directory.appendingPathComponent("served.json")
        let daemon = try GnomeKeyringDaemon.populate(
            in: directory, password: Self.password, shell: "",
            items: """
                import json
                with open('\(served.path)', 'w') as out:
                    json.dump({item.item_path.split('/')[-1]: [item.get_label(), item.get_attributes(),
                               item.get_secret().hex()] for item in collection.get_all_items()}, out)
                """)
        let daemonView = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: served)) as? [String: [Any]])
        XCTAssertEqual(
            daemonView["11"]?[2] as? String, Data("s-eleven".utf8).map { String(format: "%02x", $0) }.joined())
        XCTAssertEqual(
            daemonView["11"]?[1] as? [String: String],
            [
                "service": "bin-svc", "username": "dave", "port": "8443", "gkr:compat:uint32:port": "",
                "xdg:schema": "org.freedesktop.Secret.Generic"
            ], "the daemon reads the test's file as the test meant it")

        let result = try migrate(daemon.dataHome, ["--apply"], input: Self.password + "\n")
        XCTAssertStatus(result, 0)
        XCTAssertTrue(result.stderr.contains("2 imported, 0 skipped"), result.stderr)
        XCTAssertEqual(try secret("bin-svc", "dave"), "s-eleven\n")
        XCTAssertEqual(try attributes("bin-svc", "dave"), daemonView["11"]?[1] as? [String: String])
        XCTAssertEqual(try attributes("login", ""), daemonView["12"]?[1] as? [String: String])
        XCTAssertEqual(try attributes("login", ""), ["xdg:schema": "org.gnome.keyring.Note"])
        let note = try keychain("find-generic-password", "-s", "login", "-a", "", "-g")
        XCTAssertTrue(note.stderr.contains("password: 0x000162696E617279"), note.stderr)
        XCTAssertTrue(note.stdout.contains("\"labl\"<blob>=\"Zwölf\""), note.stdout)
    }

    /// The textual format (a keyring with an empty password). Headless, the daemon cannot create
    /// one (that needs its GTK prompter), so the test writes it by hand in the daemon's format and
    /// has the real daemon read it back (secret-tool lookup) before importing it.
    func testTextualKeyringTheDaemonReads() throws {
        let plain = """
            [keyring]
            display-name=Plain
            ctime=0
            mtime=0
            lock-on-idle=false
            lock-after=false
            lock-timeout=0

            [7]
            item-type=0
            display-name=Plain\\sitem
            secret=plain\\nsecret
            mtime=0
            ctime=0

            [7:attribute0]
            name=service
            type=string
            value=plain-svc

            [7:attribute1]
            name=username
            type=string
            value=carol

            [7:attribute2]
            name=count
            type=uint32
            value=42

            [9]
            item-type=0
            display-name=Binary
            binary-secret=00ff10
            mtime=0
            ctime=0

            [9:attribute0]
            name=service
            type=string
            value=plain-bin

            [9:acl0]
            display-name=some app
            path=/usr/bin/app
            read-access=true

            """
        let lookup = scratch.appendingPathComponent("gnome/lookup")
        let daemon = try makeLoginKeyring(
            preloaded: ["plain.keyring": plain],
            shell: "secret-tool lookup service plain-svc username carol >'\(lookup.path)'",
            extraItems: """
                import json
                for other in secretstorage.get_all_collections(connection):
                    for item in other.get_all_items():
                        if item.get_attributes().get('service') == 'plain-svc':
                            with open('\(lookup.path).json', 'w') as out:
                                json.dump(item.get_attributes(), out)
                """)
        XCTAssertEqual(try String(contentsOf: lookup, encoding: .utf8), "plain\nsecret", "the daemon reads the file")
        // What the daemon serves for it: the uint32 attribute as text, xdg:schema from the item type.
        let served = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: lookup.path + ".json")))
        XCTAssertEqual(
            served as? [String: String],
            [
                "service": "plain-svc", "username": "carol", "count": "42", "gkr:compat:uint32:count": "",
                "xdg:schema": "org.freedesktop.Secret.Generic"
            ])

        let passwordFile = try passphraseFile(Self.password)
        let result = try migrate(daemon.dataHome, ["--apply", "--password-file", passwordFile.path])
        XCTAssertStatus(result, 0)
        XCTAssertTrue(result.stderr.contains("6 imported, 0 skipped"), result.stderr)
        XCTAssertEqual(try secret("plain-svc", "carol"), "plain\nsecret\n")
        XCTAssertEqual(
            try attributes("plain-svc", "carol"),
            [
                "service": "plain-svc", "username": "carol", "count": "42", "gkr:compat:uint32:count": "",
                "xdg:schema": "org.freedesktop.Secret.Generic"
            ])
        let binary = try keychain("find-generic-password", "-s", "plain-bin", "-g")
        XCTAssertTrue(binary.stderr.contains("password: 0x00FF10"), binary.stderr)
        // Only the textual keyring: no password asked for.
        let only = try migrate(daemon.dataHome, ["--apply", "--keyring", "plain"])
        XCTAssertStatus(only, 0)
        XCTAssertTrue(only.stderr.contains("0 imported, 2 skipped"), only.stderr)

        let damaged = try dataHome(
            "plain-damaged", Data(plain.replacingOccurrences(of: "value=42", with: "value=4x2").utf8))
        try FileManager.default.moveItem(
            at: damaged.appendingPathComponent("keyrings/login.keyring"),
            to: damaged.appendingPathComponent("keyrings/plain.keyring"))
        let refused = try migrate(damaged, ["--apply"])
        XCTAssertStatus(refused, 65)
        XCTAssertTrue(refused.stderr.contains("has no decimal value"), refused.stderr)
    }

    func testConflictIsReportedAndKeptUnlessOverwrite() throws {
        let daemon = try makeLoginKeyring()
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "mine"), 0)

        let result = try migrate(daemon.dataHome, ["--apply"], input: Self.password + "\n")
        XCTAssertStatus(result, 45)
        XCTAssertTrue(
            result.stderr.contains("3 imported, 0 skipped (already in the keychain), 1 conflict"), result.stderr)
        XCTAssertTrue(result.stdout.contains("login/1  → service svc, account alice  [conflict]"), result.stdout)
        XCTAssertEqual(try secret("svc", "alice"), "mine\n", "nothing overwritten")
        XCTAssertEqual(try item(withViewHint: Self.duplicateHint(2)).secret, "first-dup")

        let overwritten = try migrate(daemon.dataHome, ["--apply", "--overwrite"], input: Self.password + "\n")
        XCTAssertStatus(overwritten, 0)
        XCTAssertTrue(
            overwritten.stderr.contains("0 imported, 3 skipped (already in the keychain), 0 conflicts, 1 overwritten"),
            overwritten.stderr)
        XCTAssertEqual(try secret("svc", "alice"), "hunter2\n")
        XCTAssertEqual(try attributes("svc", "alice")["username"], "alice")
        XCTAssertEqual(try item(withViewHint: Self.duplicateHint(2)).secret, "first-dup", "the duplicate untouched")
        XCTAssertEqual(try itemCount, 4)
    }

    /// SIGKILL at random moments of `--apply`, then the same command again: every item ends up
    /// in the keychain once, with its secret, and duplicates keep their view hints.
    func testKilledImportsFinishWhenRunAgain() throws {
        let daemon = try makeLoginKeyring()
        let passwordFile = try passphraseFile(Self.password)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<5 {
            let roundHome = scratch.appendingPathComponent("round\(round)")
            let changes: [String: String?] = [
                "XDG_DATA_HOME": daemon.dataHome.path, "SECURE_STORAGE_HOME": roundHome.path
            ]
            let arguments = ["migrate", "--from", "gnome-keyring", "--apply", "--password-file", passwordFile.path]
            try runKilled(arguments, after: Double.random(in: 0.02...0.6, using: &generator), changing: changes)
            let finished = try run(arguments, input: Data(), changing: changes)
            XCTAssertStatus(finished, 0)
            let found = try run(
                ["find-generic-password", "-s", "svc", "-a", "alice", "-w"], input: Data(), changing: changes)
            XCTAssertEqual(found.stdout, "hunter2\n", "round \(round)")
            XCTAssertEqual(
                try item(withViewHint: Self.duplicateHint(2), changing: changes).secret, "first-dup", "round \(round)")
            let listed = try run(["list", "--json"], input: Data(), changing: changes)
            XCTAssertEqual((try listed.json()["items"] as? [Any])?.count, 4, "round \(round): every item once")
        }
    }

    func testPipedInputCannotCarryTwoValues() throws {
        let daemon = try makeLoginKeyring()
        let result = try migrate(daemon.dataHome, ["--apply", "--unlock"], input: Self.password + "\n")
        XCTAssertStatus(result, 64)
        XCTAssertTrue(result.stderr.contains("Standard input cannot carry both"), result.stderr)
        XCTAssertEqual(try itemCount, 0)
    }
}

/// The Migration article's GNOME Keyring block, run as written on a terminal by a user whose
/// `~/.local/share/keyrings/login.keyring` the real daemon wrote (no `XDG_DATA_HOME`: the
/// default directory), answering the password prompt.
final class GnomeKeyringDocumentedCommandTests: DocumentedCommandCase {
    func testTheMigrationArticlesGnomeKeyringCommands() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/Migration.md",
            startingWith: "keychain migrate --from gnome-keyring --keyring login")
        let daemon = try GnomeKeyringDaemon.populate(
            in: scratch.appendingPathComponent("gnome"), password: Self.secret,
            shell: "printf 'hunter2' | secret-tool store --label='First' service svc username alice", items: "")
        let keyrings = userHome.appendingPathComponent(".local/share/keyrings")
        try FileManager.default.createDirectory(
            at: keyrings, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(at: daemon.loginKeyring, to: keyrings.appendingPathComponent("login.keyring"))
        let run = try runOnTerminal(block.text)
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(run.transcript.contains("login/1  → service svc, account alice  [import]"), run.transcript)
        XCTAssertTrue(run.transcript.contains("1 imported, 0 skipped"), run.transcript)
        XCTAssertTrue(run.transcript.hasSuffix("hunter2\r\n") || run.transcript.hasSuffix("hunter2\n"), run.transcript)
    }
}
