/// What the process running a lint asks one of its worker processes, one JSON line each.
///
/// A run is two passes: every file's facts are collected (``collect(path:)``), merged into its
/// module's facts, and then every file is linted knowing them: the worker is told the module's
/// facts once (``module(_:)``) before the first file of that module (``lint(path:)``).
package enum LintWorkerRequest: Sendable, Hashable, Codable {
    /// Read and parse the file, and answer its facts (a ``FactsOutcome``).
    case collect(path: String)
    /// The facts of the module whose files come next; answered with `true`.
    case module(ModuleFacts)
    /// Lint the file knowing the last module's facts, and answer a ``FileLintOutcome``;
    /// `isTestCode` is decided by the path below the directory it was found under
    /// (``TestCodePaths/isTestCode(_:roots:)``).
    case lint(path: String, isTestCode: Bool)
}
