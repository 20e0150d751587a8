import Foundation

/// A shell code block of the documentation (README, the DocC articles, the examples' READMEs):
/// what the documented-command suites run exactly as written.
struct DocumentedBlock: CustomStringConvertible {
    /// The file, relative to the repository root.
    let file: String
    /// The block's 1-based line in the file (its opening fence).
    let line: Int
    /// The commands, as written.
    let text: String

    /// The first command line: what a scenario is found by.
    var firstLine: String { text.split(separator: "\n").first.map(String.init) ?? "" }

    var description: String { "\(file):\(line) `\(firstLine)`" }

    /// The repository's root (this file is Tests/KeychainCLITests/DocumentedBlock.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose commands are run: README, CONTRIBUTING, every DocC article and every
    /// example's README.
    static func documents() -> [String] {
        var documents = ["README.md", "CONTRIBUTING.md"].filter {
            FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent($0).path)
        }
        for directory in ["Sources", "Examples"] {
            let root = repositoryRoot.appendingPathComponent(directory)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".md") && !path.contains(".build") {
                let inCatalog = path.contains(".docc/")
                let isReadme = path.hasSuffix("README.md")
                if inCatalog || isReadme { documents.append("\(directory)/\(path)") }
            }
        }
        return documents.sorted()
    }

    /// Every `sh`/`bash`/`shell`/`console` block of every document.
    static func all() throws -> [DocumentedBlock] {
        try documents().flatMap { try blocks(in: $0) }
    }

    static func blocks(in file: String) throws -> [DocumentedBlock] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        var blocks: [DocumentedBlock] = []
        var fence: (shell: Bool, start: Int, lines: [String])? = nil
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let open = fence else {
                if trimmed.hasPrefix("```") {
                    let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    fence = (["sh", "bash", "shell", "console"].contains(language), index + 1, [])
                }
                continue
            }
            if trimmed == "```" {
                if open.shell {
                    blocks.append(
                        DocumentedBlock(file: file, line: open.start, text: open.lines.joined(separator: "\n")))
                }
                fence = nil
            } else {
                fence?.lines.append(String(line))
            }
        }
        return blocks
    }
}
