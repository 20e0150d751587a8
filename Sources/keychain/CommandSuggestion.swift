import ArgumentParser
import KeychainCore

/// Catches a mistyped command name (`keychain find-generic-pasword`, `keychain lnt`,
/// `keychain sync jion`) before parsing, and answers with the command that was probably meant
/// instead of the parser's "Unexpected argument".
enum CommandSuggestion {
    /// The message for `arguments` when they start with an unknown command name, walking into
    /// groups of subcommands (`sync`); `nil` when every command name is known.
    static func unknownCommandMessage(in arguments: [String], of command: ParsableCommand.Type = KeychainTool.self)
        -> String?
    {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty, let word = arguments.first, !word.hasPrefix("-") else { return nil }
        if let known = subcommands.first(where: { names(of: $0).contains(word) }) {
            return unknownCommandMessage(in: Array(arguments.dropFirst()), of: known)
        }
        // `help` is the parser's; groups take no positional arguments of their own.
        guard word != "help" else { return nil }
        let path = commandPath(of: command)
        let printable = PrintableText.sanitized(word)
        if let best = closest(to: word, among: subcommands.flatMap(names(of:))) {
            return
                "keychain: '\(printable)' is not a command of `\(path)`. Did you mean `\(path) \(best)`? (`\(path) --help` lists them all.)"
        }
        return "keychain: '\(printable)' is not a command of `\(path)`; `\(path) --help` lists them all."
    }

    /// The names within a small edit distance of `word` (typing mistakes: a letter missing, extra,
    /// wrong or two swapped), the nearest first; a unique prefix counts as well.
    static func closest(to word: String, among names: [String]) -> String? {
        // Command names are short: a long word is no typing mistake, and its distance table would be large.
        guard word.count <= 64 else { return nil }
        let lowered = word.lowercased()
        let scored = names.map { name in (name, editDistance(lowered, name)) }
        let limit = max(1, min(3, lowered.count / 3))
        if let best = scored.filter({ $0.1 <= limit }).min(by: { $0.1 < $1.1 }) { return best.0 }
        let prefixed = names.filter { $0.hasPrefix(lowered) }
        return lowered.count >= 2 && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// adjacent characters each cost one.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// A command's name and its aliases (`lock-keychain` for `lock`, as macOS `security` names it).
    private static func names(of command: ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    private static func commandPath(of command: ParsableCommand.Type) -> String {
        command == KeychainTool.self ? "keychain" : "keychain \(command._commandName)"
    }
}
