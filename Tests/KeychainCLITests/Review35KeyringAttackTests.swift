#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest

/// Review 35, findings F3 (kernel keyring unlock sessions) and F4 (the test-time keychain and the
/// test's child processes): the reviewer's tests (Review35AttackTests), with their assertions, and
/// the tests of the fixes.
final class Review35KeyringAttackTests: CLITestCase {
    private let noRuntime: [String: String?] = ["XDG_RUNTIME_DIR": nil]
    private let sample = CLITestCase.builtExecutable("secure-storage-sample")

    // MARK: - F3: kernel keyring quota

    /// Runs a Python helper that speaks keyctl as uid 65534 (root only): `fill` adds "user" keys
    /// shaped like unlock tickets to nobody's persistent keyring until the kernel refuses,
    /// `clear` empties that keyring.
    private func keyringHelper(_ command: String) throws -> CLIResult {
        let script = scratch.appendingPathComponent("keys.py")
        if !FileManager.default.fileExists(atPath: script.path) {
            try """
            import ctypes, os, sys, uuid
            libc = ctypes.CDLL(None, use_errno=True)
            ring = libc.syscall(250, ctypes.c_long(22), ctypes.c_long(-1), ctypes.c_long(-2))
            if sys.argv[1] == "fill":
                n = 0
                while True:
                    d = ("secure-storage:unlock:%s" % str(uuid.uuid4()).upper()).encode()
                    if libc.syscall(248, b"user", d, os.urandom(105), ctypes.c_size_t(105), ctypes.c_int(ring)) < 0:
                        print(n, os.strerror(ctypes.get_errno())); break
                    n += 1
            else:
                libc.syscall(250, ctypes.c_long(7), ctypes.c_long(ring))
            """.write(to: script, atomically: true, encoding: .utf8)
            chmod(scratch.path, 0o755)
            chmod(script.path, 0o644)
        }
        return try run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", script.path, command],
            input: Data(),
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }

    /// A non-root user's keyring quota (/proc/sys/kernel/keys/maxbytes, 20000 by default: about
    /// 120 tickets) is full. Then (a) `unlock` names the keyring's quota rather than saying "Disk
    /// quota exceeded", and (b) a second `unlock` of a keychain whose session works leaves that
    /// session working although it fails.
    func testReview35_AFullKeyringQuotaIsExplainedAndDoesNotEndAWorkingSession() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("needs root and python3")
        }
        let nobody = URL(fileURLWithPath: "/tmp/kc-r35-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: nobody, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(nobody.path, 65534, 65534), 0)
        defer {
            try? FileManager.default.removeItem(at: nobody)
            _ = try? keyringHelper("clear")
        }
        let user: [String: String?] = [
            "XDG_RUNTIME_DIR": nil, "SECURE_STORAGE_HOME": nobody.appendingPathComponent("home").path,
            "HOME": nobody.path
        ]
        func asNobody(_ arguments: [String], input: String = "") throws -> CLIResult {
            try run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", Self.executable.path] + arguments,
                input: Data(input.utf8),
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"), changing: user)
        }
        _ = try keyringHelper("clear")
        XCTAssertStatus(try asNobody(["create", "--passphrase"], input: "pass\n"), 0)
        XCTAssertStatus(
            try asNobody(["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock"], input: "pass\n"),
            0)
        XCTAssertStatus(try asNobody(["unlock", "--timeout", "600"], input: "pass\n"), 0)
        XCTAssertEqual(try asNobody(["find-generic-password", "-s", "svc", "-a", "a", "-w"]).stdout, "secret\n")

        let filled = try keyringHelper("fill")
        XCTAssertTrue(filled.stdout.contains("quota"), filled.stdout + filled.stderr)

        let again = try asNobody(["unlock", "--timeout", "600"], input: "pass\n")
        XCTAssertStatus(again, 53)
        XCTAssertFalse(again.stderr.contains("Disk quota exceeded"), "a keyring quota, not a disk: \(again.stderr)")
        XCTAssertTrue(again.stderr.contains("maxbytes") || again.stderr.contains("quota of keys"), again.stderr)
        // The session that worked before the failed unlock still works.
        XCTAssertEqual(
            try asNobody(["find-generic-password", "-s", "svc", "-a", "a", "-w"]).stdout, "secret\n",
            "a failed unlock ended the working session")
        // The message says how to free the quota, and a session without a timeout fails the same way.
        for expected in ["/proc/key-users", "keychain lock", "keyctl", "maxkeys"] {
            XCTAssertTrue(again.stderr.contains(expected), "\(expected): \(again.stderr)")
        }
        XCTAssertStatus(try asNobody(["unlock", "--timeout", "0"], input: "pass\n"), 53)
        XCTAssertEqual(try asNobody(["find-generic-password", "-s", "svc", "-a", "a", "-w"]).stdout, "secret\n")

        // Once there is room again, a new session replaces the old one.
        _ = try keyringHelper("clear")
        XCTAssertStatus(try asNobody(["unlock", "--timeout", "600"], input: "pass\n"), 0)
        XCTAssertEqual(try asNobody(["find-generic-password", "-s", "svc", "-a", "a", "-w"]).stdout, "secret\n")
    }

    // MARK: - F3: sessions without an expiry leave the keyring when abandoned

    /// The vault id of the keychain in `directory` (laid out like SECURE_STORAGE_HOME), from its format anchor.
    private func vaultID(in directory: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("state").path)
        let anchor = try XCTUnwrap(names.first { $0.hasPrefix("keychain-") && $0.hasSuffix(".anchor") }, "\(names)")
        return String(anchor.dropFirst("keychain-".count).dropLast(".anchor".count))
    }

    /// The /proc/keys line of the ticket of vault `id`, as fields (serial, flags, usage, timeout, …); nil when there is none.
    private func ticketLine(vaultID id: String) throws -> [Substring]? {
        try String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            .first {
                $0.count >= 9 && $0[8] == "secure-storage:unlock:\(id):" && $0[3] != "expd" && !$0[1].contains("i")
                    && !$0[1].contains("R")
            }
    }

    /// `unlock --timeout 0` in the kernel keyring: the key gets a timeout of a day (not "perm"),
    /// and resuming the session starts that day again.
    func testASessionWithoutAnExpiryGetsAKernelTimeoutThatEachResumeRestarts() throws {
        guard !FileManager.default.fileExists(atPath: "/run/user/\(getuid())") else {
            throw XCTSkip("/run/user exists")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("needs python3") }
        XCTAssertStatus(try run(["create", "--passphrase"], input: Data("pass\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(
            try run(
                ["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock"],
                input: Data("pass\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(try run(["unlock", "--timeout", "0"], input: Data("pass\n".utf8), changing: noRuntime), 0)
        defer { _ = try? run(["lock"], input: Data(), changing: noRuntime) }
        let id = try vaultID(in: home)
        let line = try XCTUnwrap(try ticketLine(vaultID: id), "the ticket is in the keyring")
        XCTAssertTrue(["1d", "23h"].contains(line[3]), "a day, not \(line[3])")

        // The timeout runs down (here: set to 50 seconds); a command that resumes the session restarts it.
        let serial = try XCTUnwrap(Int(line[0], radix: 16))
        let setTimeout = try run(
            [
                "-c",
                "import ctypes; libc = ctypes.CDLL(None, use_errno=True); import sys; sys.exit(libc.syscall(250, ctypes.c_long(15), ctypes.c_long(\(serial)), ctypes.c_long(50)) != 0)"
            ],
            input: Data(), executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertStatus(setTimeout, 0)
        XCTAssertTrue(try XCTUnwrap(try ticketLine(vaultID: id))[3].hasSuffix("s"), "less than a minute left")
        XCTAssertEqual(
            try run(["find-generic-password", "-s", "svc", "-a", "a", "-w"], input: Data(), changing: noRuntime).stdout,
            "secret\n")
        let restarted = try XCTUnwrap(try ticketLine(vaultID: id))[3]
        XCTAssertTrue(["1d", "23h"].contains(restarted), "resuming the session restarts its day, not \(restarted)")
    }

    // MARK: - F4: the test-time keychain reaches the test's child processes

    /// A test process (the sample app under a test bundle's name) without SECURE_STORAGE_HOME uses
    /// its default keychain, then starts the `keychain` tool, which inherits the throw-away keychain:
    /// it writes and reads there, never the user's default keychain, and the keychain is gone when
    /// the test process exits. (The reviewer's version started the tool from this test process with
    /// SECURE_STORAGE_HOME removed from the child's environment explicitly, which nothing can undo.)
    func testReview35_AChildOfATestProcessDoesNotWriteTheUsersKeychain() throws {
        let (userHome, changes) = try runnerEnvironment()
        let runner = scratch.appendingPathComponent("DependentPackageTests.xctest")
        // a copy: the executable's own name counts, not a link's
        try FileManager.default.copyItem(at: sample, to: runner)
        let tool = Self.executable.path
        let script = """
            "\(tool)" add-generic-password -s svc -a a -w v && "\(tool)" find-generic-password -s svc -a a -w && printf '%s\\n' "$SECURE_STORAGE_HOME"
            """
        let result = try run(
            ["run-child", "/bin/sh", "-c", script], input: Data(), executable: runner, changing: changes)
        XCTAssertStatus(result, 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "v", "the child reads what it wrote: \(result.stdout) \(result.stderr)")
        let inherited = try XCTUnwrap(lines.last)
        XCTAssertTrue(inherited.contains("secure-storage-test-keychain"), inherited)
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: userHome.appendingPathComponent(".local/share/secure-storage/keychain.db").path),
            "a test's child process wrote the user's default keychain")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: userHome.appendingPathComponent(".local/share/secure-storage").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: inherited),
            "the throw-away keychain is removed at exit: \(inherited)")

        // An explicit SECURE_STORAGE_HOME is left as it is.
        var explicit = changes
        explicit["SECURE_STORAGE_HOME"] = home.path
        let kept = try run(
            ["run-child", "/bin/sh", "-c", "printf '%s\\n' \"$SECURE_STORAGE_HOME\""], input: Data(),
            executable: runner, changing: explicit)
        XCTAssertEqual(kept.stdout, home.path + "\n")
    }

    /// The throw-away keychain's unlock ticket (here a kernel keyring key, made by a `--timeout 0`
    /// unlock in a child) is removed with the keychain when the test process exits.
    func testTheTestKeychainsUnlockTicketIsRemovedAtExit() throws {
        guard !FileManager.default.fileExists(atPath: "/run/user/\(getuid())") else {
            throw XCTSkip("/run/user exists")
        }
        var (_, changes) = try runnerEnvironment()
        changes["XDG_RUNTIME_DIR"] = .some(nil)
        let runner = scratch.appendingPathComponent("TicketPackageTests.xctest")
        // a copy: the executable's own name counts, not a link's
        try FileManager.default.copyItem(at: sample, to: runner)
        let tool = Self.executable.path
        let script = """
            printf 'pass\\n' | "\(tool)" create --passphrase >/dev/null && printf 'pass\\n' | "\(tool)" unlock --timeout 0 2>/dev/null &&
            id=$(ls "$SECURE_STORAGE_HOME/state" | sed -n 's/^keychain-\\(.*\\)\\.anchor$/\\1/p') &&
            grep -q "secure-storage:unlock:$id" /proc/keys && printf '%s\\n' "$id"
            """
        let result = try run(
            ["run-child", "/bin/sh", "-c", script], input: Data(), executable: runner, changing: changes)
        XCTAssertStatus(result, 0)
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(
            UUID(uuidString: id), "the child's session was in the keyring: \(result.stdout) \(result.stderr)")
        XCTAssertNil(try ticketLine(vaultID: id), "the ticket outlived the throw-away keychain")
    }
}
