import Foundation
import XCTest

/// Review of issue 34 §4 ("no RUNPATH $ORIGIN (`--disable-local-rpath`)"): the fix is a build
/// flag, with no check at run time, so it holds only for builds made as documented. The DocC
/// articles still give build commands for the `keychain` and `keychain-lint` executables without
/// it: an executable built that way has `RUNPATH $ORIGIN`, and a `libpq.so.5` (dlopen'd by
/// soname for sync) planted beside it is loaded into the process holding the keychain.
final class Review34DocumentedBuildTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every documented `swift build`/`swift run` of an executable that loads libpq or tpm2-tss
    /// (`keychain`, `keychain-lint`) passes `--disable-local-rpath`.
    /// Reproduction: `grep -rn "swift build" Sources/*/*.docc` → KeychainTool.md
    /// `swift build -c release --static-swift-stdlib --product keychain`, then
    /// `readelf -d .build/release/keychain | grep RUNPATH` shows `$ORIGIN`.
    func testEveryDocumentedBuildOfTheToolDisablesTheLocalRunpath() throws {
        var documents = [Self.root.appendingPathComponent("README.md")]
        let sources = Self.root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL { if url.pathExtension == "md" { documents.append(url) } }
        var offending: [String] = []
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                // Commands quoted in backticks or on their own line.
                for command in line.split(separator: "`")
                where command.contains("swift build") || command.contains("swift run") {
                    let buildsTool =
                        command.contains("--product keychain")
                        || command.range(of: #"swift run( -\S+)* keychain"#, options: .regularExpression) != nil
                    if buildsTool && !command.contains("--disable-local-rpath") {
                        offending.append("\(document.lastPathComponent):\(number + 1): \(command)")
                    }
                }
            }
        }
        XCTAssertEqual(offending, [], "documented builds of the tool that give it RUNPATH $ORIGIN")
    }
}
