import Foundation
import XCTest
@testable import SecureStorageLint

/// The whole-module pipeline: `keychain-lint` collects every file's facts in its worker processes,
/// merges them per module, and lints each file knowing them; test code is left out unless asked
/// for; and the facts that cross between processes never carry a string literal's content.
final class ModuleLintTests: XCTestCase {
    static let base = "import UIKit\nclass AppScreenBase: UIViewController {}\n"
    static let screen = """
        import Security
        final class SettingsScreen: AppScreenBase {
            func save(_ query: CFDictionary) -> OSStatus { SecItemAdd(query, nil) }
        }
        """

    func testTheExecutableLintsEachFileKnowingTheOtherFilesOfItsModule() throws {
        // The base class is declared in one file of the target, the SecItem call in another; a
        // second target with the same subclass name does not see the first one's base class.
        let root = try sourceTree([
            "Sources/App/Base.swift": Self.base,
            "Sources/App/SettingsScreen.swift": Self.screen,
            "Sources/Widget/SettingsScreen.swift": Self.screen.replacingOccurrences(
                of: "AppScreenBase", with: "WidgetBase")
        ])
        for jobs in ["1", "2"] {
            let result = try LintExecutable.run(["--json", "--jobs", jobs, root.path])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(
                try LintExecutable.findings(result, under: root),
                ["Sources/App/SettingsScreen.swift:3 secitem-on-main-actor"])
        }
    }

    func testAnXcodeAppFolderIsOneModule() throws {
        let root = try sourceTree(["MyApp/Base.swift": Self.base, "MyApp/Screens/SettingsScreen.swift": Self.screen])
        let result = try LintExecutable.run(["--json", root.appendingPathComponent("MyApp").path])
        XCTAssertEqual(
            try LintExecutable.findings(result, under: root),
            ["MyApp/Screens/SettingsScreen.swift:3 secitem-on-main-actor"])
    }

    func testAFileThatCannotBeParsedAddsNothingAndIsReported() throws {
        // The base class hides behind brackets nested too deep to parse: its file is not linted
        // (status 74, listed), and its facts do not reach the other file.
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let root = try sourceTree([
            "App/Base.swift": Self.base + "let x = \(deep)\n", "App/SettingsScreen.swift": Self.screen
        ])
        let result = try LintExecutable.run(["--json", root.appendingPathComponent("App").path])
        XCTAssertEqual(result.status, 74)
        XCTAssertEqual(try LintExecutable.findings(result, under: root), [])
        XCTAssertTrue(result.stdout.contains("\"reason\":\"too-deep\""), result.stdout)
    }

    func testTestCodeFoundInDirectoriesIsSkippedUnlessIncluded() throws {
        let write =
            "import Foundation\nfunc keep(_ token: String) { UserDefaults.standard.set(token, forKey: \"authToken\") }\n"
        let root = try sourceTree([
            "App/Store.swift": write, "App/LoginTests.swift": write, "AppTests/StoreTests.swift": write,
            "App/Fixtures/Sample.swift": write, "App/MockStore.swift": write
        ])
        let app = root.appendingPathComponent("App").path
        let tests = root.appendingPathComponent("AppTests").path

        let plain = try LintExecutable.run([app, tests])
        XCTAssertEqual(plain.status, 1, plain.stderr)
        // AppTests was named on the command line: linted whole.
        XCTAssertTrue(plain.stdout.contains("App/Store.swift:2:"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("AppTests/StoreTests.swift:2:"), plain.stdout)
        XCTAssertFalse(plain.stdout.contains("LoginTests.swift"), plain.stdout)
        XCTAssertTrue(plain.stdout.contains("; 3 test files skipped (--include-tests)"), plain.stdout)

        let json = try LintExecutable.run(["--json", app])
        XCTAssertTrue(json.stdout.contains("\"skippedTestFiles\":3"), json.stdout)
        XCTAssertEqual(try LintExecutable.findings(json, under: root), ["App/Store.swift:2 insecure-secret-storage"])

        let included = try LintExecutable.run(["--json", "--include-tests", app])
        XCTAssertTrue(included.stdout.contains("\"skippedTestFiles\":0"), included.stdout)
        XCTAssertEqual(try LintExecutable.findings(included, under: root).count, 4, included.stdout)

        // A test file named on the command line is linted.
        let named = try LintExecutable.run(["--json", root.appendingPathComponent("App/LoginTests.swift").path])
        XCTAssertEqual(
            try LintExecutable.findings(named, under: root), ["App/LoginTests.swift:2 insecure-secret-storage"])
    }

    func testTestCodePaths() {
        for path in [
            "AppTests/A.swift", "Tests/X/A.swift", "App/LoginTests.swift", "App/LoginSpec.swift",
            "App/Fixtures/A.swift", "App/MockKeychain.swift", "App/KeychainMock.swift", "AppUITests/A.swift",
            "Modules/TestSupport/A.swift", "ElementX/Sources/Screens/MockSoftLogoutScreenState.swift"
        ] {
            XCTAssertTrue(TestCodePaths.isTestCode(path), path)
        }
        // `…Test` is a word of production names too (`SpeedTest`): such directories are linted.
        for path in [
            "App/Contest.swift", "App/Attestation.swift", "App/LatestView.swift", "Sources/App/Testimony.swift",
            "WordPressTest/A.swift", "Sources/App/SpeedTest.swift", "Sources/App/LoginSpec.swift"
        ] {
            XCTAssertFalse(TestCodePaths.isTestCode(path), path)
        }
    }

    func testModuleMap() {
        let files = [
            "Pkg/Sources/Core/A.swift", "Pkg/Sources/Core/Sub/B.swift", "Pkg/Sources/UI/C.swift", "App/D.swift",
            "App/Screens/E.swift", "Other/F.swift", "G.swift"
        ]
        XCTAssertEqual(
            ModuleMap.moduleIndices(of: files, roots: ["Pkg", "App", "Other", "G.swift"]), [0, 0, 1, 2, 2, 3, 4])
        XCTAssertEqual(ModuleMap.moduleKey(of: "Sources/App/A.swift", roots: ["."]), "Sources/App")
        // Vendored code: each dependency is a module of its own, the app another.
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/Pods/Realm/Sources/R.swift", roots: ["App"]), "App/Pods/Realm")
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/Pods/Realm/RealmSwift/R.swift", roots: ["App"]), "App/Pods/Realm")
        XCTAssertEqual(
            ModuleMap.moduleKey(of: "App/Carthage/Checkouts/Yap/Y/Y.swift", roots: ["App"]),
            "App/Carthage/Checkouts/Yap")
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/Vendor/Obfuscator.swift", roots: ["App"]), "App/Vendor")
        XCTAssertEqual(ModuleMap.moduleKey(of: "App/Screens/Login.swift", roots: ["App"]), "App")
        // A package target that vendors code keeps it inside the target's own module only when
        // the vendored directory is above the target.
        XCTAssertEqual(
            ModuleMap.moduleKey(of: "Vendor/Lib/Sources/Lib/A.swift", roots: ["."]), "Vendor/Lib/Sources/Lib")
        // A file directly under Sources belongs to the root, not to a target named after it.
        XCTAssertEqual(ModuleMap.moduleKey(of: "Pkg/Sources/A.swift", roots: ["Pkg"]), "Pkg")
    }

    func testModuleFactsNeverCarryTheContentOfALiteral() throws {
        // Facts travel between processes as JSON: names only, never what a literal says.
        let secrets = [
            "b@nkP@ssword123", "auth_token_value_7f3a", "sk_" + "live_4eC39HqLyjWDarjtT1zdp7dc", "s3cr3t-pin"
        ]
        let source = """
            import Security
            enum Keys {
                static let password = "\(secrets[0])"
                static let token = "\(secrets[1])"
                static let attrAccount = kSecAttrAccount as String
            }
            struct Credentials: Codable { var password = "\(secrets[3])"; var apiKey: String }
            @MainActor final class LoginViewController: UIViewController {
                let stripe = "\(secrets[2])"
                func query(_ key: String) -> [String: Any] { [kSecAttrAccount as String: key, kSecAttrService as String: "\(secrets[1])"] }
                func delete(_ key: String) { SecItemDelete(query(key) as CFDictionary) }
            }
            """
        let facts = ModuleFacts.ofSingleFile(ParsedSource(bytes: Array(source.utf8)), path: "A.swift")
        let encoded = String(decoding: try JSONEncoder().encode(facts), as: UTF8.self)
        for secret in secrets { XCTAssertFalse(encoded.contains(secret), "the facts carry \(secret): \(encoded)") }
        XCTAssertTrue(facts.actors.isMainActor("LoginViewController"))
    }

    func testAHostileInheritanceChainCostsLinearTime() throws {
        // 20,000 classes, each inheriting from the next one declared, the root a view controller:
        // a fixed point recomputed round by round would take 20,000 rounds over 20,000 types.
        let count = 20_000
        var chain = "import UIKit\n"
        for index in 0..<count { chain += "class C\(index): C\(index + 1) {}\n" }
        chain += "class C\(count): UIViewController {}\n"
        let call =
            "import Security\nextension C0 {\n    func f(_ q: CFDictionary) -> OSStatus { SecItemAdd(q, nil) }\n}\n"
        let clock = ContinuousClock()
        let started = clock.now
        let found = SourceFileLinter().lint(module: [
            (path: "Chain.swift", bytes: Array(chain.utf8)), (path: "Call.swift", bytes: Array(call.utf8))
        ])
        XCTAssertEqual(
            found.map { "\($0.file):\($0.position.line) \($0.rule.rawValue)" }, ["Call.swift:3 secitem-on-main-actor"])
        XCTAssertLessThan(clock.now - started, .seconds(60), "the chain took \(clock.now - started)")
    }

    func testAVendoredDatabaseLibrarysEncryptionOptionsDoNotSilenceTheApp() throws {
        // The app stores a password in Realm without an encryption key; the vendored Realm
        // source mentions `encryptionKey:` as any database library does.
        let root = try sourceTree([
            "App/Pods/RealmSwift/Realm.swift": """
            public struct Configuration {
                public init(encryptionKey: Data? = nil) {}
                static func defaultConfiguration() -> Configuration { Configuration(encryptionKey: nil) }
            }
            """,
            "App/Login/RealmStore.swift": """
            import RealmSwift
            final class Account: Object { @objc dynamic var password = "" }
            func save(password: String) throws {
                let realm = try Realm()
                let account = Account()
                account.password = password
                try realm.write { realm.add(account) }
            }
            """
        ])
        let result = try LintExecutable.run(["--json", root.appendingPathComponent("App").path])
        XCTAssertTrue(
            try LintExecutable.findings(result, under: root).contains {
                $0.hasPrefix("App/Login/RealmStore.swift:") && $0.hasSuffix(" unencrypted-database")
            },
            result.stdout)
    }
}
