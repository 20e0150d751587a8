import Foundation

/// Finds the Swift files under the paths given on the command line.
///
/// Directories are searched recursively, in name order; hidden entries, `.build` and `.build-*`
/// scratch directories and anything matching an exclusion are skipped. Files named explicitly
/// are linted whatever their extension, unless excluded.
package struct SourceFileFinder: Sendable {
    /// Paths or glob patterns (`*`, `?`, `[…]`) to leave out, relative to the current directory.
    package var exclusions: [String]
    /// Whether test code found in directories is linted (``TestCodePaths``); files named on the
    /// command line always are.
    package var includesTests: Bool

    /// A finder leaving out `exclusions`, and test code found in directories unless `includesTests`.
    package init(exclusions: [String] = [], includesTests: Bool = true) {
        self.exclusions = exclusions.map(SourceFileFinder.normalized)
        self.includesTests = includesTests
    }

    /// The files to lint, and the test files found in directories and left out.
    package func search(_ paths: [String]) throws(LintUsageError) -> (files: [String], skippedTestFiles: [String]) {
        var skipped: [String] = []
        let files = try files(in: paths, skippedTestFiles: &skipped)
        return (files, skipped)
    }

    /// The files to lint, in order, or the path that does not exist.
    package func files(in paths: [String]) throws(LintUsageError) -> [String] {
        var skipped: [String] = []
        return try files(in: paths, skippedTestFiles: &skipped)
    }

    private func files(in paths: [String], skippedTestFiles: inout [String]) throws(LintUsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LintUsageError("\(path): no such file or directory")
            }
            let root = SourceFileFinder.normalized(path)
            if !isDirectory.boolValue {
                if !isExcluded(root) { files.append(root) }
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: path) else { continue }
            // A test directory named on the command line is linted whole.
            let skipsTests =
                !includesTests && root.split(separator: "/").last.map(TestCodePaths.isTestDirectory) != true
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                let full = root == "." ? relative : root + "/" + relative
                if name.hasPrefix(".") || name == ".build" || isExcluded(full) {
                    enumerator.skipDescendants()
                    continue
                }
                // Regular files only (a directory named `X.swift` is searched, not read).
                let isDirectory = enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory
                guard name.hasSuffix(".swift") && !isDirectory else { continue }
                if skipsTests && TestCodePaths.isTestCode(relative) {
                    skippedTestFiles.append(full)
                } else {
                    found.append(full)
                }
            }
            files.append(contentsOf: found.sorted())
        }
        // Each file once, however it was reached (a symbolic link to a file also listed).
        var seen: Set<String> = []
        return files.filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().path).inserted }
    }

    /// Whether a path matches an exclusion, both taken relative to the current directory when
    /// they are under it (the plugin passes absolute paths; exclusions are usually relative).
    private func isExcluded(_ path: String) -> Bool {
        let candidates = Set([path, SourceFileFinder.relativeToWorkingDirectory(path)])
        return exclusions.contains { given in
            let exclusion = SourceFileFinder.relativeToWorkingDirectory(given)
            return candidates.contains { path in
                if path == exclusion || path.hasPrefix(exclusion + "/") { return true }
                guard exclusion.contains(where: { "*?[".contains($0) }) else { return false }
                return fnmatch(exclusion, path, 0) == 0 || fnmatch(exclusion + "/*", path, 0) == 0
            }
        }
    }

    /// `/work/app/Sources/A.swift` → `Sources/A.swift` when run in `/work/app`; other paths unchanged.
    package static func relativeToWorkingDirectory(_ path: String) -> String {
        let directory = FileManager.default.currentDirectoryPath
        guard path.hasPrefix("/"), path.hasPrefix(directory + "/") else { return path }
        return String(path.dropFirst(directory.count + 1))
    }

    /// `./Sources/` → `Sources` (how the finder writes the paths it is given).
    package static func normalized(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "." : path
    }
}

/// A command-line mistake: a path that does not exist, an unknown rule id (exit status 64).
package struct LintUsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
