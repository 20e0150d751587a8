import Foundation
import XCTest
@testable import SecureStorageLint

/// Which files a run lints.
final class SourceFileFinderTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-finder-\(UUID().uuidString)")
        for file in [
            "App/A.swift", "App/B.swift", "App/notes.txt", "App/.hidden/C.swift", ".build/debug/D.swift",
            ".build-release/E.swift", "App/Generated/F.swift", "Tests/G.swift"
        ] {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("let x = 1\n".utf8).write(to: url)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func testDirectoriesAreSearchedSkippingHiddenAndScratchDirectories() throws {
        let files = try SourceFileFinder().files(in: [root.path])
        XCTAssertEqual(
            files.map { String($0.dropFirst(root.path.count + 1)) },
            ["App/A.swift", "App/B.swift", "App/Generated/F.swift", "Tests/G.swift"])
    }

    func testExclusionsByPathAndGlob() throws {
        let byPath = try SourceFileFinder(exclusions: [root.path + "/App/Generated/"]).files(in: [root.path])
        XCTAssertFalse(byPath.contains { $0.hasSuffix("F.swift") })
        let byGlob = try SourceFileFinder(exclusions: [root.path + "/*/B.swift", root.path + "/Test?"]).files(in: [
            root.path
        ])
        XCTAssertEqual(
            byGlob.map { String($0.dropFirst(root.path.count + 1)) }, ["App/A.swift", "App/Generated/F.swift"])
    }

    func testNamedFilesAreLintedOnceAndMissingPathsAreUsageErrors() throws {
        let file = root.appendingPathComponent("App/A.swift").path
        XCTAssertEqual(try SourceFileFinder().files(in: [file, file]), [file])
        XCTAssertThrowsError(try SourceFileFinder().files(in: [root.path + "/missing"])) { error in
            XCTAssertTrue("\(error)".hasSuffix("/missing: no such file or directory"))
        }
    }
}
