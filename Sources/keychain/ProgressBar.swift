import Foundation
import SecureStorageFoundation

/// A progress bar on standard error for long work, shown only when standard error is a terminal
/// (scripts and logs get the summary line alone). Redraws at most ten times a second.
final class ProgressBar {
    private let title: String
    private let enabled = isatty(STDERR_FILENO) != 0
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(_ title: String) { self.title = title }

    /// Reports `done` of `total` units.
    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard done >= total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let width = 30
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\(title) [\(bar)] \(Int(fraction * 100))% \(done)/\(total)".utf8))
        drawn = true
    }

    /// Ends the bar's line.
    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}

/// Runs long keychain work with a progress bar; keychain errors become exit statuses.
func withProgress<T>(_ title: String, _ body: (_ update: @escaping (Int, Int) -> Void) throws -> T) throws -> T {
    let bar = ProgressBar(title)
    defer { bar.finish() }
    return try reportingErrors { try body { bar.update($0, of: $1) } }
}
