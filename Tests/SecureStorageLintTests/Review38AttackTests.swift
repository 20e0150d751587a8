import Foundation
import SwiftParser
import XCTest
@testable import SecureStorageLint

/// Issue 38's attack review: a hostile repository (a pull request linted in CI) against the
/// two-pass module lint (facts collected in workers, merged and resolved in the parent, sent back
/// to every worker), the test-code heuristic and the module-wide delete-then-add.
///
/// Each test states the behaviour a user relies on; those that fail show a finding of the review.
final class Review38AttackTests: XCTestCase {
    /// `b0` returns a query whose account repeats its parameter 24 times (47 tokens, under
    /// ``QueryTemplate/maximumTokens``); each `bK` calls `bK-1` with 24 copies of its own
    /// parameter, and `count` builders call `b3` the same way: resolving `topN` substitutes
    /// 24 × 24 × 24 × 24 × 24 ≈ 8 million tokens for one key. The file is 1.5 KB.
    static func multiplyingBuilders(_ count: Int) -> String {
        let copies = Array(repeating: "x", count: 24).joined(separator: " + ")
        var source = """
            import Security
            func b0(_ x: String) -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: \(copies)] }

            """
        for level in 1...3 { source += "func b\(level)(_ x: String) -> [String: Any] { b\(level - 1)(\(copies)) }\n" }
        for index in 0..<count { source += "func top\(index)(_ x: String) -> [String: Any] { b3(\(copies)) }\n" }
        return source
    }

    // MARK: 1. Cost

    /// Finding (high): the parent process merges and resolves every module's facts with no time
    /// limit, and `QueryBuilder.resolved` substitutes argument templates into base templates four
    /// levels deep without bounding the result: each level multiplies a template's length by up to
    /// 47 / 2. Measured with the debug executable on `multiplyingBuilders(n)`: n = 1: 0.7 s,
    /// 170 MB; n = 2: 1.2 s, 270 MB; n = 4: 2.4 s, 550 MB; n = 8: 5.6 s, 970 MB — about 0.6 s and
    /// 120 MB per 60-byte line, so a 16 KB file takes minutes and tens of GB (the CI runner is
    /// killed, no report). The resolved facts are then JSON-encoded and sent to every worker.
    ///
    /// Expected: a resolved template longer than ``QueryTemplate/maximumTokens`` is unknown (`?`)
    /// as at collection, resolution is memoised, and resolving this module is instant and small.
    func testBuilderChainsCannotMultiplyTemplatesWhileTheParentResolvesThem() throws {
        var file = ModuleFacts()
        file.queries.collect(from: Parser.parse(source: Self.multiplyingBuilders(2)), path: "Builders.swift")
        let clock = ContinuousClock()
        let started = clock.now
        let resolved = LintWorkerPool.merge([.collected(file)], modules: [0])
        let elapsed = clock.now - started
        let encoded = try JSONEncoder().encode(resolved[0])
        XCTAssertLessThan(elapsed, .milliseconds(500), "resolving a 1.5 KB file's facts took \(elapsed)")
        XCTAssertLessThan(encoded.count, 64 << 10, "the resolved facts sent to every worker are \(encoded.count) bytes")
        for (name, builder) in resolved[0].queries.builders {
            for (key, template) in builder.entries {
                XCTAssertLessThanOrEqual(
                    template.split(separator: " ").count, QueryTemplate.maximumTokens, "\(name) \(key)")
            }
        }
    }

    /// Finding (medium): when the module's facts cannot be sent to a worker within the time limit
    /// (they are huge, see above), every file of the module is reported as having "taken longer
    /// than N s to parse and lint", and its findings are lost: here `Store.swift`, two lines,
    /// whose delete-then-add is found without the builders file. The message blames the wrong
    /// file and the wrong cause (a refusal is reported, exit 74, which held).
    ///
    /// Expected: the facts stay small (above), so that both files are linted and the finding is
    /// reported; and a failure to send the module's facts is reported as such (not as the file's
    /// own parse time), ideally by linting the file on its own facts instead. (With a 1 s limit
    /// the send sometimes fits on an idle machine; 0.5 s reproduces every time.)
    func testAFileIsNotRefusedBecauseItsModulesFactsAreTooLargeToSend() throws {
        let root = try sourceTree([
            "App/Builders.swift": Self.multiplyingBuilders(4),
            "App/Store.swift":
                "import Security\nfunc save(_ q: CFDictionary) { SecItemDelete(q); SecItemAdd(q, nil) }\n"
        ])
        let result = try LintExecutable.run([
            "--json", "--jobs", "1", "--time-limit", "0.5", "--only", "delete-then-add",
            root.appendingPathComponent("App").path
        ])
        XCTAssertFalse(result.stdout.contains("App/Store.swift\",\"reason\":\"time-limit\""), result.stdout)
        XCTAssertEqual(
            try LintExecutable.findings(result, under: root), ["App/Store.swift:2 delete-then-add"], result.stdout)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
    }

    /// A base builder with `count` keys (any name starting `kSec` is taken for a constant) and
    /// `count` one-line builders that return it.
    static func sharedBaseBuilders(_ count: Int) -> String {
        let keys = (0..<count).map { "kSecK\($0): v" }.joined(separator: ", ")
        var source = "import Security\nfunc b0() -> [String: Any] { [kSecClass: kSecClassGenericPassword, \(keys)] }\n"
        for index in 0..<count { source += "func t\(index)() -> [String: Any] { b0() }\n" }
        return source
    }

    /// Finding (high, same cause): resolving copies a base builder's entries into every builder
    /// built on it, so the resolved facts are (builders × keys), quadratic in the file: measured
    /// with the debug executable, 50 KB → 2.8 s, 190 MB; 100 KB → 8.7 s, 675 MB and the file
    /// refused (its module's facts could not be sent to the worker within 5 s). A 16 MiB file
    /// needs hundreds of GB. Even with only the ~80 real `kSec…` names, each 40-byte line costs
    /// 80 entries.
    ///
    /// Expected: resolved facts grow linearly with the module (builders keep a reference to their
    /// base, resolved lazily and memoised where a call needs it; or only the keys the rules read
    /// are kept, and only real Security constant names; and a cap on a module's facts).
    func testResolvedFactsGrowLinearlyWithTheModule() throws {
        func resolvedSize(_ count: Int) throws -> Int {
            var file = ModuleFacts()
            file.queries.collect(from: Parser.parse(source: Self.sharedBaseBuilders(count)), path: "Q.swift")
            return try JSONEncoder().encode(LintWorkerPool.merge([.collected(file)], modules: [0])[0]).count
        }
        let small = try resolvedSize(200)
        let large = try resolvedSize(400)
        XCTAssertLessThan(Double(large) / Double(small), 2.5, "200 builders: \(small) bytes; 400: \(large) bytes")
    }

    // MARK: 2. Reports

    /// Held: a file parsed in time in the first pass but over the time limit in the second (3,000
    /// deletes then 3,000 adds in one function: the pre-existing delete/add pairing is quadratic)
    /// is listed as not linted in every format with status 74, and the next file of the same
    /// module, linted by a new worker told the module's facts again, keeps its finding.
    func testAFileOverTheLimitInTheSecondPassIsReportedAndTheNextKeepsItsFindings() throws {
        let count = 3000
        let slow =
            "import Security\nfunc wipe(_ q: [CFDictionary], _ p: [CFDictionary]) {\n"
            + (0..<count).map { "    _ = SecItemDelete(q[\($0)])\n" }.joined()
            + (0..<count).map { "    _ = SecItemAdd(p[\($0)], nil)\n" }.joined() + "}\n"
        let root = try sourceTree([
            "App/Slow.swift": slow,
            "App/Store.swift":
                "import Security\nfunc save(_ q: CFDictionary) { SecItemDelete(q); SecItemAdd(q, nil) }\n"
        ])
        let app = root.appendingPathComponent("App").path
        let common = ["--jobs", "1", "--time-limit", "2", "--only", "delete-then-add", app]
        let json = try LintExecutable.run(["--json"] + common)
        XCTAssertEqual(json.status, 74, json.stderr)
        XCTAssertEqual(try LintExecutable.findings(json, under: root), ["App/Store.swift:2 delete-then-add"])
        XCTAssertTrue(json.stdout.contains("App/Slow.swift\",\"reason\":\"time-limit\""), json.stdout)
        let text = try LintExecutable.run(common)
        XCTAssertEqual(text.status, 74)
        XCTAssertTrue(text.stdout.contains("App/Slow.swift: error: not linted:"), text.stdout)
        XCTAssertTrue(text.stdout.contains("App/Store.swift:2:"), text.stdout)
        let sarif = try LintExecutable.run(["--sarif"] + common)
        XCTAssertEqual(sarif.status, 74)
        XCTAssertTrue(sarif.stdout.contains("\"executionSuccessful\":false"), sarif.stdout)
        XCTAssertTrue(sarif.stdout.contains("Slow.swift"), sarif.stdout)
    }

    /// Finding (low): the text and JSON reports say how many test files were skipped; SARIF
    /// (what GitHub code scanning shows a reviewer) says nothing, so a pull request that moves
    /// production code into a `Fixtures` directory or renames it `…Stub.swift` leaves no trace in
    /// the code-scanning view.
    ///
    /// Expected: SARIF carries the count (e.g. the invocation's `properties.skippedTestFiles`, or a
    /// note-level tool execution notification).
    func testSARIFSaysHowManyTestFilesWereSkipped() throws {
        let write =
            "import Foundation\nfunc keep(_ token: String) { UserDefaults.standard.set(token, forKey: \"authToken\") }\n"
        let root = try sourceTree([
            "App/Store.swift": write, "App/Fixtures/Sample.swift": write, "App/MockStore.swift": write
        ]
        )
        let result = try LintExecutable.run(["--sarif", root.appendingPathComponent("App").path])
        XCTAssertTrue(result.stdout.contains("skippedTestFiles"), result.stdout)
    }

    // MARK: 3. Test-code heuristic

    /// Finding (medium): test-ness is judged on the whole path when it is not under the current
    /// directory: `keychain-lint /ci/workspace/PRTest/App` (an absolute path, as the package
    /// plugin passes and CI scripts often do) treats every file as test code because a directory
    /// ABOVE the root is named like a test (`PRTest`, `SmokeTests`, `Specs`), and the rules that
    /// judge by intent go silent: measured, the same file gives an `insecure-secret-storage`
    /// error under `/…/CI/App` and nothing (exit 0) under `/…/CITest/App`.
    ///
    /// Expected: test code is judged by the path below the root the file was found under (or
    /// relative to the root named), never by the directories above it.
    func testADirectoryAboveTheRootNamedLikeATestDoesNotSilenceTheRules() throws {
        let source = """
            import Foundation
            func keep(_ password: String, at path: String) throws {
                try password.write(toFile: path, atomically: true, encoding: .utf8)
            }

            """
        let plain = try sourceTree(["App/Store.swift": source], under: "CI")
        let testLike = try sourceTree(["App/Store.swift": source], under: "CITest")
        let outside = URL(fileURLWithPath: "/")
        let expected = try LintExecutable.findings(
            LintExecutable.run(["--json", plain.appendingPathComponent("CI/App").path], in: outside), under: plain)
        XCTAssertFalse(expected.isEmpty, "the rule no longer reports a password written to a file")
        let found = try LintExecutable.findings(
            LintExecutable.run(["--json", testLike.appendingPathComponent("CITest/App").path], in: outside),
            under: testLike)
        XCTAssertEqual(
            found, expected.map { $0.replacingOccurrences(of: "CI/App", with: "CITest/App") },
            "a directory above the root made every file test code")
    }

    /// Finding (medium): production files whose names merely contain a test word are skipped
    /// silently (only a count is reported; exit 0): `Mock` as a prefix matches `Mockup…`,
    /// `Mockingbird`; `…Test` matches product features (`SpeedTest`, `ABTest`); a SwiftPM
    /// production target (`Sources/<Target>/`, where SwiftPM never puts tests) is judged by file
    /// name alone. A hostile pull request can hide a finding by naming alone.
    ///
    /// Expected: `Mock` only as a word (`Mock`, `MockKeychain`, `KeychainMock`, not `Mockup`), and
    /// files of a `Sources/<Target>` target never skipped by their file name.
    func testProductionNamesThatOnlyContainATestWordAreNotTestCode() {
        for path in [
            "App/MockupViewController.swift", "App/Mockingbird.swift", "Sources/App/SpeedTest.swift",
            "Sources/Experiments/ABTest.swift", "Sources/Networking/APIStub.swift"
        ] {
            XCTAssertFalse(TestCodePaths.isTestCode(path), path)
        }
        // Still test code.
        for path in ["App/MockKeychain.swift", "App/KeychainMock.swift", "AppTests/A.swift", "Tests/X/AStub.swift"] {
            XCTAssertTrue(TestCodePaths.isTestCode(path), path)
        }
    }

    // MARK: 4. Module-wide facts keyed by short signature

    static let keychainWrapper = """
        import Security
        final class Keychain {
            static func query(_ key: String) -> [String: Any] {
                [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
            }
            func remove(_ key: String) -> OSStatus { SecItemDelete(Keychain.query(key) as CFDictionary) }
        }

        """

    /// Finding (medium, precision): a deleting function is known module-wide by its name and first
    /// label only, and a deleting call is not checked against its receiver (the adding-function
    /// pairing is; the `SecItemAdd` pairing is not): `pendingKeys.remove(key)`, a `Set`'s
    /// `remove(_:)`, in another type of the module, followed by a `SecItemAdd` of `key`, is
    /// reported as delete-then-add because the Keychain wrapper has `remove(_ key:)`.
    ///
    /// Expected: no finding (a call on a receiver that is a property or variable of another type
    /// than the deleting function's is not that function; at least, a receiver declared in this
    /// scope or type as a collection is not).
    func testASetsRemoveIsNotTheKeychainWrappersRemove() throws {
        let uploader = """
            import Security
            final class Uploader {
                var pendingKeys: Set<String> = []
                func store(_ data: Data, key: String) -> OSStatus {
                    pendingKeys.remove(key)
                    var add = Keychain.query(key)
                    add[kSecValueData as String] = data
                    add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
                    return SecItemAdd(add as CFDictionary, nil)
                }
            }

            """
        let found = SourceFileLinter(enabledRules: [.deleteThenAdd]).lint(module: [
            (path: "Keychain.swift", bytes: Array(Self.keychainWrapper.utf8)),
            (path: "Uploader.swift", bytes: Array(uploader.utf8))
        ])
        XCTAssertEqual(found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, [])
    }

    /// Finding (high, precision): the same keying, on the most common shape there is. A Keychain
    /// wrapper whose API mirrors UserDefaults (SwiftKeychainWrapper's `removeObject(forKey:)` and
    /// `set(_:forKey:)`, often copied into an app, whose folder is one module) makes every
    /// `UserDefaults.standard.removeObject(forKey: key)` followed by
    /// `UserDefaults.standard.set(value, forKey: key)` in the module a delete-then-add warning
    /// (the receivers are equal, so the receiver check passes).
    ///
    /// Expected: no finding: a call whose receiver is evidently another type (`UserDefaults`,
    /// `NSUbiquitousKeyValueStore`, a collection, a property or variable of another declared
    /// type) is not the wrapper's function; facts should carry the declaring type.
    func testUserDefaultsIsNotAKeychainWrapperWithTheSameMethodNames() throws {
        let wrapper = """
            import Security
            open class KeychainWrapper {
                public static let standard = KeychainWrapper()
                private func query(forKey key: String) -> [String: Any] {
                    [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
                }
                @discardableResult open func removeObject(forKey key: String) -> Bool {
                    SecItemDelete(query(forKey: key) as CFDictionary) == errSecSuccess
                }
                @discardableResult open func set(_ value: Data, forKey key: String) -> Bool {
                    var add = query(forKey: key)
                    add[kSecValueData as String] = value
                    add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
                    return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
                }
            }

            """
        let settings = """
            import Foundation
            final class Settings {
                func resetTheme(_ theme: String, key: String) {
                    UserDefaults.standard.removeObject(forKey: key)
                    UserDefaults.standard.set(theme, forKey: key)
                }
            }

            """
        let found = SourceFileLinter(enabledRules: [.deleteThenAdd]).lint(module: [
            (path: "KeychainWrapper.swift", bytes: Array(wrapper.utf8)),
            (path: "Settings.swift", bytes: Array(settings.utf8))
        ])
        XCTAssertEqual(found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, [])
    }

    /// Finding (medium, hiding): the same short-signature keying lets any file of the module
    /// silence a real delete-then-add elsewhere: an unrelated `SessionCache.remove(_ index: Int)`
    /// that adds an item makes every `remove(_` a replacement rather than a deletion, and the
    /// finding in `TokenStore` disappears (measured with the executable: 3 findings → 2).
    ///
    /// Expected: the finding stays (facts of functions of different types, or with different
    /// parameter names or types, are not merged into one).
    func testAnUnrelatedMethodWithTheSameSignatureDoesNotHideADeleteThenAdd() throws {
        let store = """
            import Security
            final class TokenStore {
                func query(_ key: String) -> [String: Any] {
                    [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
                }
                func remove(_ key: String) { _ = SecItemDelete(query(key) as CFDictionary) }
                func save(_ data: Data, key: String) -> OSStatus {
                    remove(key)
                    var add = query(key)
                    add[kSecValueData as String] = data
                    return SecItemAdd(add as CFDictionary, nil)
                }
            }

            """
        let cache = """
            import Security
            struct SessionCache {
                var persisted: [String: Any] = [:]
                func remove(_ index: Int) -> OSStatus { SecItemAdd(persisted as CFDictionary, nil) }
            }

            """
        let linter = SourceFileLinter(enabledRules: [.deleteThenAdd])
        let alone = linter.lint(module: [(path: "TokenStore.swift", bytes: Array(store.utf8))])
        XCTAssertEqual(alone.map { "\($0.file):\($0.position.line)" }, ["TokenStore.swift:8"])
        let withCache = linter.lint(module: [
            (path: "TokenStore.swift", bytes: Array(store.utf8)), (path: "SessionCache.swift", bytes: Array(cache.utf8))
        ])
        XCTAssertEqual(withCache.map { "\($0.file):\($0.position.line)" }, ["TokenStore.swift:8"])
    }

    /// Finding (low, precision): `KeychainQuery(builder:arguments:…)` collects a value's roots from
    /// every argument whose `$index` the template *contains*, so `$1` matches inside `$10`: with
    /// a builder of 11 parameters whose account is `prefix + $10`, deleting `key` (argument 1) and
    /// adding the account built from `other` (argument 10) is reported as delete-then-add.
    ///
    /// Expected: no finding (match `$index` as a whole token: split the template on spaces).
    func testParameterTenIsNotParameterOne() throws {
        let parameters = (0...10).map { "_ p\($0): String" }.joined(separator: ", ")
        let source = """
            import Security
            func remove(_ key: String) -> OSStatus { SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary) }
            func query(\(parameters)) -> [String: Any] {
                [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: prefix + p10, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
            }
            func move(key: String, other: String) -> OSStatus {
                _ = remove(key)
                return SecItemAdd(query(a, key, a, a, a, a, a, a, a, a, other) as CFDictionary, nil)
            }

            """
        let found = SourceFileLinter(enabledRules: [.deleteThenAdd]).lint(module: [
            (path: "Move.swift", bytes: Array(source.utf8))
        ])
        XCTAssertEqual(found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, [])
    }

    /// Finding (low, hiding; fixed here in one line): a file without `SecItem` is walked for
    /// delete-then-add only when its text contains a deleting function's name followed by `(`,
    /// so `keychain.remove (key)` (valid Swift) hid the finding that `keychain.remove(key)` gives.
    /// The gate now searches the name alone.
    func testASpaceBeforeTheArgumentsDoesNotHideADeletingCall() throws {
        let keychain = """
            import Security
            final class Keychain {
                func remove(_ key: String) -> OSStatus { SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary) }
                func set(_ value: Data, key: String) -> OSStatus { SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: value] as CFDictionary, nil) }
            }

            """
        for call in ["keychain.remove(key)", "keychain.remove (key)", "keychain.remove /* */(key)"] {
            let login = """
                final class Login {
                    let keychain = Keychain()
                    func store(_ token: Data, key: String) {
                        _ = \(call)
                        _ = keychain.set(token, key: key)
                    }
                }

                """
            let found = SourceFileLinter(enabledRules: [.deleteThenAdd]).lint(module: [
                (path: "Keychain.swift", bytes: Array(keychain.utf8)), (path: "Login.swift", bytes: Array(login.utf8))
            ])
            XCTAssertEqual(found.map { "\($0.file):\($0.position.line)" }, ["Login.swift:4"], call)
        }
    }

    /// Finding (medium, recall): files named on the command line are each a module of their own
    /// (``ModuleMap`` takes each as its own root), so the way pre-commit hooks and "lint the
    /// changed files" CI steps call the lint (`keychain-lint App/Keychain.swift App/Login.swift`)
    /// loses every cross-file fact: the delete-then-add that `keychain-lint App` reports
    /// disappears.
    ///
    /// Expected: the same findings: files named together from one directory (outside any
    /// `Sources/<Target>`) form one module, as when the directory is named (or the facts of the
    /// named files' directory are collected while only the named files are linted).
    func testFilesNamedTogetherShareTheirDirectorysModule() throws {
        let keychain = """
            import Security
            final class Keychain {
                func remove(_ key: String) -> OSStatus { SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary) }
                func set(_ value: Data, key: String) -> OSStatus { SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: value] as CFDictionary, nil) }
            }

            """
        let login = """
            final class Login {
                let keychain = Keychain()
                func store(_ token: Data, key: String) {
                    _ = keychain.remove(key)
                    _ = keychain.set(token, key: key)
                }
            }

            """
        let root = try sourceTree(["App/Keychain.swift": keychain, "App/Login.swift": login])
        let app = root.appendingPathComponent("App")
        let directory = try LintExecutable.findings(
            LintExecutable.run(["--json", "--only", "delete-then-add", app.path]), under: root)
        XCTAssertEqual(directory, ["App/Login.swift:4 delete-then-add"])
        let named = try LintExecutable.findings(
            LintExecutable.run([
                "--json", "--only", "delete-then-add", app.appendingPathComponent("Keychain.swift").path,
                app.appendingPathComponent("Login.swift").path
            ]), under: root)
        XCTAssertEqual(named, directory)
    }

    /// Finding (medium, precision): ``ActorFacts`` merges the conformances of extensions, from any
    /// file, into the type's supertypes, so `extension TokenCache: UITextFieldDelegate {}` in
    /// another file makes a SecItem call in `TokenCache`'s own declaration a
    /// `secitem-on-main-actor` warning. Swift infers a type's global actor only from conformances
    /// in its primary declaration (swiftlang/swift #36644, "conforms to a protocol in its original
    /// definition"; #75122: "conforming to the protocol in an extension" opts out); only the
    /// members of that extension are isolated.
    ///
    /// Expected: no finding in the primary declaration (the extension's own members may be).
    func testAConformanceInAnotherFilesExtensionDoesNotIsolateTheType() throws {
        let cache = """
            import Security
            final class TokenCache {
                func load(_ query: CFDictionary) -> OSStatus {
                    var item: CFTypeRef?
                    return SecItemCopyMatching(query, &item)
                }
            }

            """
        let delegate = """
            import UIKit
            extension TokenCache: UITextFieldDelegate {
                func textFieldDidEndEditing(_ textField: UITextField) {}
            }

            """
        let found = SourceFileLinter(enabledRules: [.secItemOnMainActor]).lint(module: [
            (path: "TokenCache.swift", bytes: Array(cache.utf8)),
            (path: "TokenCache+TextField.swift", bytes: Array(delegate.utf8))
        ])
        XCTAssertEqual(found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, [])
    }

    // MARK: 5. Literals in facts

    /// Facts travel between processes as JSON and must never hold what a literal says, including
    /// literals the parser keeps inside a type (`class A: ("…")`, an invalid file is still linted)
    /// and regex literals in a query value.
    func testNoLiteralReachesTheFactsThroughTypesOrRegexes() throws {
        let secret = "hunter2-b@nk-P4ss"
        let source = """
            import Security
            class Session: ("\(secret)") {}
            extension Login<"\(secret)"> {}
            func query() -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: #/\(secret)/#] }
            func other() -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: /\(secret)/] }

            """
        let facts = ModuleFacts.ofSingleFile(ParsedSource(bytes: Array(source.utf8)), path: "A.swift")
        let encoded = String(decoding: try JSONEncoder().encode(facts), as: UTF8.self)
        XCTAssertFalse(encoded.contains("hunter2"), encoded)
    }

    // MARK: 6. Determinism

    /// Held: the same findings whatever the number of workers, with modules interleaved in file
    /// order (a root module's files between two package targets' files, so workers switch
    /// modules), repeated.
    func testFindingsDoNotDependOnJobsOrModuleInterleaving() throws {
        let store =
            Self.keychainWrapper.replacingOccurrences(of: "final class Keychain", with: "final class Store")
            .replacingOccurrences(of: "Keychain.query", with: "Store.query")
            + "func save(_ k: Keychain, _ key: String) -> OSStatus { _ = k.remove(key); return SecItemAdd(Keychain.query(key) as CFDictionary, nil) }\n"
        let root = try sourceTree([
            "Repo/a.swift": Self.keychainWrapper, "Repo/b/Sources/T/s.swift": store,
            "Repo/c.swift": store.replacingOccurrences(of: "class Store", with: "class Store2")
                .replacingOccurrences(of: "Store.query", with: "Store2.query"),
            "Repo/d/Sources/T/s.swift": Self.keychainWrapper, "Repo/e.swift": "let unrelated = 1\n"
        ])
        let path = root.appendingPathComponent("Repo").path
        var seen: Set<[String]> = []
        for jobs in ["1", "2", "3", "1"] {
            seen.insert(try LintExecutable.findings(LintExecutable.run(["--json", "--jobs", jobs, path]), under: root))
        }
        XCTAssertEqual(seen.count, 1, "\(seen)")
    }

    // MARK: Second round

    /// Second round (medium): a class of the same name declared anywhere in the module made a
    /// struct holding a password print as "its type's name only", hiding the leak.
    func testAClassOfTheSameNameElsewhereDoesNotHideALoggedStruct() throws {
        let login = """
            struct Credentials { var username: String; var password: String }
            func signIn(_ credentials: Credentials) { print(credentials) }

            """
        let found = SourceFileLinter().lint(module: [
            (path: "Login.swift", bytes: Array(login.utf8)),
            (path: "Other.swift", bytes: Array("enum Legacy { final class Credentials {} }\n".utf8))
        ])
        XCTAssertEqual(
            found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, ["Login.swift:2 logged-secret"])
    }

    /// Second round (medium): any `encryptionKey:` label or the words "PRAGMA key" anywhere in the
    /// module silenced every unencrypted Realm or SQLite finding.
    func testAnUnrelatedEncryptionKeyLabelDoesNotMakeTheDatabaseEncrypted() throws {
        let store = """
            import RealmSwift
            final class Account: Object { @Persisted var password = "" }
            func save(password: String) throws {
                let account = Account()
                account.password = password
                let realm = try Realm()
                try realm.write { realm.add(account) }
            }

            """
        let unrelated = """
            func track(_ event: String, encryptionKey: String?) {}
            func start() { track("start", encryptionKey: nil) }
            let help = "Run PRAGMA key to unlock a SQLCipher file"

            """
        let found = SourceFileLinter().lint(module: [
            (path: "Store.swift", bytes: Array(store.utf8)), (path: "Analytics.swift", bytes: Array(unrelated.utf8))
        ])
        XCTAssertTrue(found.contains { $0.file == "Store.swift" && $0.rule == .unencryptedDatabase }, "\(found)")
        // A real key in the module's Realm configuration still counts.
        let configured = "import RealmSwift\nlet config = Realm.Configuration(encryptionKey: loadKey())\n"
        let silent = SourceFileLinter().lint(module: [
            (path: "Store.swift", bytes: Array(store.utf8)), (path: "Config.swift", bytes: Array(configured.utf8))
        ])
        XCTAssertFalse(silent.contains { $0.rule == .unencryptedDatabase }, "\(silent)")
    }

    /// Second round (low–medium): the app's own `Dependencies/` folder (a TCA convention) was taken
    /// for vendored code and lost the module's facts.
    func testAnAppsOwnDependenciesFolderIsPartOfTheApp() {
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/Dependencies/Models.swift", roots: ["App"]), "App")
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/External/Client.swift", roots: ["App"]), "App")
    }

    /// Second round (low–medium): a literal written where a type goes (the parser accepts
    /// `var c: (String, "…")`) reached the facts and a finding's message.
    func testNoLiteralReachesTheFactsThroughTypeAnnotationsOrExtensions() throws {
        let secret = "sk_" + "live_TUPLE_4242"
        let source = """
            struct Holder { var c: (String, "\(secret)"); var d: [String: "\(secret)"] }
            extension (String, "\(secret)") { var password: String { "" } }
            func show(_ h: Holder) { print(h) }

            """
        let parsed = ParsedSource(bytes: Array(source.utf8))
        let facts = ModuleFacts.ofSingleFile(parsed, path: "A.swift")
        XCTAssertFalse(String(decoding: try JSONEncoder().encode(facts), as: UTF8.self).contains(secret))
        let found = SourceFileLinter().lint(path: "A.swift", bytes: Array(source.utf8))
        XCTAssertFalse(found.contains { $0.message.contains(secret) }, "\(found)")
    }
}
