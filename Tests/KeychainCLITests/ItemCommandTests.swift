import Foundation
import XCTest

/// The item commands, with macOS `security`'s flags, text and JSON output, and exit codes.
final class ItemCommandTests: CLITestCase {
    func testGenericPasswordLifecycleWithSecurityFlags() throws {
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "api.example.com", "-a", "alice", "-l", "API", "-j", "a comment",
                "-D", "token", "-c", "aapl", "-C", "note", "-G", "extra", "-w", "s3cret-1"), 0)
        let shown = try keychain("find-generic-password", "-s", "api.example.com", "-a", "alice")
        XCTAssertStatus(shown, 0)
        XCTAssertTrue(shown.stdout.contains("\"labl\"<blob>=\"API\""), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\"icmt\"<blob>=\"a comment\""), shown.stdout)
        XCTAssertTrue(
            shown.stdout.contains("\"crtr\"<uint32>=1633775724"), "aapl as a four-character code: \(shown.stdout)")
        XCTAssertFalse(shown.stdout.contains("s3cret-1"), "no secret without -g or -w")

        let withSecret = try keychain("find-generic-password", "-s", "api.example.com", "-g")
        XCTAssertTrue(
            withSecret.stderr.hasSuffix("password: \"s3cret-1\"\n"),
            "on standard error, as macOS security: \(withSecret.stderr)")
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "api.example.com", "-a", "alice", "-w").stdout, "s3cret-1\n")

        let json = try keychain("find-generic-password", "-s", "api.example.com", "--json", "-g").json()
        let attributes = try XCTUnwrap(json["attributes"] as? [String: Any])
        XCTAssertEqual(json["class"] as? String, "genp")
        XCTAssertEqual(json["password"] as? String, "s3cret-1")
        XCTAssertEqual(attributes["acct"] as? String, "alice")
        XCTAssertEqual(attributes["desc"] as? String, "token")
        XCTAssertEqual(attributes["type"] as? Int, 0x6E6F_7465)
        XCTAssertEqual(attributes["gena"] as? [String: String], ["base64": "ZXh0cmE="], "kSecAttrGeneric is data")
        XCTAssertEqual(attributes["pdmn"] as? String, "ak")

        let duplicate = try keychain("add-generic-password", "-s", "api.example.com", "-a", "alice", "-w", "other")
        XCTAssertStatus(duplicate, 45)
        XCTAssertTrue(duplicate.stderr.contains("-U"), "says what to do: \(duplicate.stderr)")
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "api.example.com", "-a", "alice", "-U", "-l", "Renamed",
                "--accessibility", "cku", "-w", "s3cret-2"), 0)
        try keychain("add-generic-password", "-s", "api.example.com", "-w", "no-account")
        XCTAssertStatus(try keychain("add-generic-password", "-s", "api.example.com", "-U", "-w", "no-account-2"), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "api.example.com", "-a", "", "-w").stdout, "no-account-2\n",
            "-U without -a updates the item with the default (empty) account only")
        let updated = try keychain("find-generic-password", "-s", "api.example.com", "-a", "alice", "-g", "--json")
            .json()
        XCTAssertEqual(updated["password"] as? String, "s3cret-2")
        XCTAssertEqual((updated["attributes"] as? [String: Any])?["labl"] as? String, "Renamed")
        XCTAssertEqual((updated["attributes"] as? [String: Any])?["pdmn"] as? String, "cku")

        let unnamed = try keychain("delete-generic-password")
        XCTAssertStatus(unnamed, 64)
        XCTAssertTrue(unnamed.stderr.contains("--all"), unnamed.stderr)
        let deleted = try keychain("delete-generic-password", "-s", "api.example.com", "-a", "alice")
        XCTAssertStatus(deleted, 0)
        XCTAssertTrue(deleted.stderr.contains("deleted 1 item"))
        let missing = try keychain("find-generic-password", "-s", "api.example.com", "-a", "alice")
        XCTAssertStatus(missing, 44)
        XCTAssertStatus(try keychain("delete-generic-password", "-s", "api.example.com"), 0)
        XCTAssertStatus(try keychain("delete-generic-password", "-s", "api.example.com"), 44)
        try keychain("add-generic-password", "-s", "one", "-w", "1")
        try keychain("add-generic-password", "-s", "two", "-w", "2")
        XCTAssertStatus(try keychain("delete-generic-password", "--all"), 0)
        XCTAssertStatus(try keychain("find-generic-password"), 44)
    }

    /// Reading commands open the keychain read-only: they leave its database, log, device key and
    /// anchor byte for byte as they were (no write, no sync, no file created or removed), and
    /// work when the files are read-only; changing commands say why they cannot.
    func testReadingCommandsLeaveTheFilesAsTheyWere() throws {
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "s3cret"), 0)
        func snapshot() throws -> [String: String] {
            var files: [String: String] = [:]
            let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                // SQLite's index of the log: no data, rebuilt when nobody has it open
                if url.path.hasSuffix("-shm") { continue }
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                guard (attributes[.type] as? FileAttributeType) == .typeRegular else { continue }
                files[url.path] =
                    try Data(contentsOf: url).base64EncodedString()
                    + " \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) \(attributes[.systemFileNumber] ?? 0)"
            }
            return files
        }
        let before = try snapshot()
        XCTAssertTrue(
            before.keys.contains { $0.hasSuffix("keychain.db-wal") }, "the log stays, empty, after the last close")
        Thread.sleep(forTimeInterval: 0.02)
        for _ in 0..<2 {
            XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "alice", "-w").stdout, "s3cret\n")
            XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "nobody"), 44)
            XCTAssertStatus(try keychain("dump-keychain"), 0)
            XCTAssertStatus(try keychain("verify"), 0)
        }
        XCTAssertEqual(try snapshot(), before)

        // On a read-only file system (a read-only bind mount over the keychain's directory, in a
        // mount namespace of its own), reading still works and changing is refused.
        let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\""
        func onReadOnlyMount(_ arguments: String...) throws -> CLIResult {
            try run(
                ["-m", "sh", "-c", script, "sh", home.path, Self.executable.path] + arguments, input: Data(),
                executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        }
        let found = try onReadOnlyMount("find-generic-password", "-s", "svc", "-a", "alice", "-w")
        XCTAssertEqual(found.stdout, "s3cret\n", found.stderr)
        let refused = try onReadOnlyMount("add-generic-password", "-s", "svc", "-a", "bob", "-w", "x")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(
            refused.stderr.lowercased().contains("read-only") || refused.stderr.lowercased().contains("readonly"),
            refused.stderr)
        XCTAssertEqual(try snapshot(), before)
    }

    /// The find commands' common calls skip the argument parser (`DirectFindParser`): every
    /// call, whether it takes that path or falls back to the parser, prints exactly what the
    /// parser's path prints, on the same streams, with the same status.
    func testDirectlyParsedFindsAnswerAsTheParserDoes() throws {
        let other = scratch.appendingPathComponent("other").path
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-l", "Label", "-w", "s3cret"), 0)
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "bob", "-w", "b0b"), 0)
        XCTAssertStatus(
            try keychain("add-internet-password", "-s", "example.com", "-a", "carol", "-r", "htps", "-w", "c4rol"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "dave", "--keychain", other, "-w", "d4ve"), 0)
        let file = scratch.appendingPathComponent("a-file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        let calls: [[String]] = [
            ["find-generic-password", "-s", "svc", "-a", "alice", "-w"],
            ["find-generic-password", "-a", "alice", "-s", "svc", "-g"],
            ["find-generic-password", "-s", "svc", "-a", "alice", "--json", "-g"],
            ["find-generic-password", "-s", "svc", "-a", "alice", "-w", "--json"],
            ["find-generic-password", "-l", "Label"],
            ["find-generic-password", "-s", "svc"],
            ["find-generic-password"],
            ["find-generic-password", "-s", "svc", "-a", "nobody", "-w"],
            ["find-generic-password", "-s", "svc", "-a", "dave", "-w", "--keychain", other],
            ["find-generic-password", "-s", "svc", "-a", "alice", "--keychain", file],
            [
                "find-generic-password", "-s", "svc", "-a", "alice", "--keychain",
                scratch.appendingPathComponent("none").path
            ],
            ["find-internet-password", "-s", "example.com", "-a", "carol", "-w"],
            ["find-internet-password", "-s", "example.com", "-g", "--json"],
            // Not taken directly: each falls back to the parser.
            ["find-generic-password", "-s", "svc", "-s", "svc", "-w"],
            ["find-generic-password", "-s", "-w"],
            ["find-generic-password", "-s"],
            ["find-generic-password", "-s", "svc", "-x"],
            ["find-generic-password", "--account=alice", "-w"],
            ["find-generic-password", "-w", "-w"],
            ["find-generic-password", "-s", "svc", "-a", "alice", "-w", "--unlock"],
            ["find-internet-password", "-s", "example.com", "-r", "htps", "-w"],
            ["find-generic-password", "--help"]
        ]
        for call in calls {
            let direct = try run(call, input: Data())
            let parsed = try run(call, input: Data(), changing: ["KEYCHAIN_NO_DIRECT_PARSE": "1"])
            XCTAssertEqual(direct.status, parsed.status, "\(call)")
            XCTAssertEqual(direct.stdout, parsed.stdout, "\(call)")
            XCTAssertEqual(direct.stderr, parsed.stderr, "\(call)")
        }
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "alice", "-w").stdout, "s3cret\n")
    }

    func testInternetPasswordFlags() throws {
        XCTAssertStatus(
            try keychain(
                "add-internet-password", "-s", "example.com", "-a", "bob", "-d", "realm", "-r", "htps",
                "-P", "8443", "-p", "/login", "-t", "form", "-w", "web-secret"), 0)
        let json = try keychain("find-internet-password", "-s", "example.com", "-r", "htps", "-P", "8443", "--json")
            .json()
        let attributes = try XCTUnwrap(json["attributes"] as? [String: Any])
        XCTAssertEqual(json["class"] as? String, "inet")
        XCTAssertEqual(attributes["srvr"] as? String, "example.com")
        XCTAssertEqual(attributes["sdmn"] as? String, "realm")
        XCTAssertEqual(attributes["ptcl"] as? String, "htps")
        XCTAssertEqual(attributes["port"] as? Int, 8443)
        XCTAssertEqual(attributes["path"] as? String, "/login")
        XCTAssertEqual(attributes["atyp"] as? String, "form")
        XCTAssertNil(json["password"])
        XCTAssertStatus(try keychain("find-internet-password", "-s", "example.com", "-P", "443"), 44)
        XCTAssertEqual(try keychain("find-internet-password", "-s", "example.com", "-w").stdout, "web-secret\n")
        XCTAssertStatus(try keychain("delete-internet-password", "-s", "example.com", "-a", "bob"), 0)
        XCTAssertStatus(try keychain("find-internet-password", "-s", "example.com"), 44)
    }

    func testSecretsFromStandardInputNeverFromTheCommandLine() throws {
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "piped", input: "line-secret\nignored\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "piped", "-w").stdout, "line-secret\n")

        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "trailing", "-w", input: "after-w\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "trailing", "-w").stdout, "after-w\n")

        let pem = "-----BEGIN KEY-----\nAAAA\nBBBB\n-----END KEY-----"
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "pem", "--stdin", input: pem + "\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "pem", "-w").stdout, pem + "\n")

        let binary = Data([0xFF, 0x00, 0xFE, 0x0D, 0x0A])  // not UTF-8, ends in CR LF: kept byte for byte
        XCTAssertStatus(try run(["add-generic-password", "-s", "svc", "-a", "binary", "--stdin"], input: binary), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "binary", "-w", "--json").json()["password"]
                as? [String: String],
            ["base64": binary.base64EncodedString()])
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "looks-encoded", "-w", "base64:AAAA"), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "looks-encoded", "-w", "--json").json()["password"]
                as? String,
            "base64:AAAA", "text that looks encoded stays text")
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "empty", "--stdin"), 64)

        let noInput = try keychain("add-generic-password", "-s", "svc", "-a", "nothing")
        XCTAssertStatus(noInput, 64)
        XCTAssertTrue(noInput.stderr.contains("standard input"), noInput.stderr)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "nothing"), 44)
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "x", "-w", "a", "--stdin"), 64)
    }

    func testListAndDumpNeverShowSecretsUnlessAsked() throws {
        try keychain("add-generic-password", "-s", "alpha", "-a", "one", "-w", "secret-one")
        try keychain("add-generic-password", "-s", "beta", "-a", "two", "-w", "secret-two", "--accessibility", "cku")
        try keychain("add-internet-password", "-s", "example.com", "-a", "one", "-w", "secret-three")

        let list = try keychain("list")
        XCTAssertStatus(list, 0)
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 3)
        XCTAssertTrue(list.stderr.contains("3 items"))
        let filtered = try keychain("list", "--class", "genp", "-a", "one", "--json").json()
        let items = try XCTUnwrap(filtered["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual((items.first?["attributes"] as? [String: Any])?["svce"] as? String, "alpha")
        XCTAssertEqual(try XCTUnwrap(try keychain("list", "-a", "one", "--json").json()["items"] as? [Any]).count, 2)
        XCTAssertEqual(
            try XCTUnwrap(try keychain("list", "--accessibility", "cku", "--json").json()["items"] as? [Any]).count, 1)
        XCTAssertEqual(
            try XCTUnwrap(try keychain("list", "--class", "cert", "-a", "one", "--json").json()["items"] as? [Any])
                .count, 0)
        XCTAssertStatus(try keychain("list", "--class", "nonsense"), 64)

        for output in [
            try keychain("list"), try keychain("list", "--json"), try keychain("dump-keychain"),
            try keychain("dump-keychain", "--json")
        ] {
            XCTAssertFalse(output.stdout.contains("secret-"), "no secret without -d: \(output.stdout)")
        }
        let dump = try keychain("dump-keychain", "-d", "--json").json()
        let secrets = try XCTUnwrap(dump["items"] as? [[String: Any]]).compactMap { $0["data"] as? String }
        XCTAssertEqual(Set(secrets), ["secret-one", "secret-two", "secret-three"])
        XCTAssertTrue(try keychain("dump-keychain", "-d").stdout.contains("\"secret-two\""))
    }

    func testHelpDocumentsExitCodesAndUsageErrorsExit64() throws {
        let help = try keychain("--help")
        XCTAssertStatus(help, 0)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in [
            "44 item not found", "51 keychain locked", "52 integrity violation", "64 usage error", "export", "verify"
        ] {
            XCTAssertTrue(words.contains(text), "help mentions \(text): \(words)")
        }
        XCTAssertStatus(try keychain("find-generic-password", "--no-such-flag"), 64)
        XCTAssertStatus(try keychain("add-generic-password", "-s", "s", "-w", "x", "--accessibility", "sometimes"), 64)
        let missing = try keychain("find-generic-password", "-s", "s")
        XCTAssertStatus(missing, 44)
        XCTAssertTrue(missing.stderr.contains("no keychain yet"), "says why: \(missing.stderr)")
        let explicit = try keychain(
            "find-generic-password", "-s", "s", "--keychain", scratch.appendingPathComponent("none").path)
        XCTAssertStatus(explicit, 53)
        XCTAssertTrue(explicit.stderr.contains("keychain create"), "says what to do: \(explicit.stderr)")
    }
}
