/// What the linter refuses to lint rather than spend unbounded time or memory on.
///
/// swift-syntax's parser takes exponential time on nested `[` (each level of `[[[…]]]` doubles
/// it, in array literals, array types and interpolations alike): its own nesting limit does not
/// stop that, because the time goes into look-ahead, which the limit does not bound. So `[` is
/// counted before parsing (``BracketDepthScanner``), every other bracket by the parser's limit
/// (``maximumNestingLevel``), and whatever else is slow by the time limit of the worker process
/// each file is linted in (``LintWorkerPool``).
package enum InputLimits {
    /// The largest file linted: 16 MiB.
    package static let maximumBytes = 16 << 20
    /// The deepest `[` nesting linted (ordinary code stays under 8; 16 levels take the
    /// unoptimised parser about a second, and each level more doubles it).
    package static let maximumBracketDepth = 16
    /// The deepest nesting of `(`, `[`, `{`, `<` and `#if` together that swift-syntax parses
    /// before it gives up on the rest of the file (its own default is 20 in debug builds and 256
    /// in release ones; ordinary code, SwiftUI included, stays under 40).
    package static let maximumNestingLevel = 128
    /// The seconds one file may take to be read, parsed and linted by default (the largest file
    /// of this repository, 66 KB, takes 0.4 s unoptimised).
    package static let defaultTimeLimit: Double = 5

    /// Why `bytes` are not linted, or nil when they may be parsed.
    package static func refusal(of bytes: [UInt8]) -> NotLintedReason? {
        if bytes.count > maximumBytes { return .tooLarge(bytes: bytes.count) }
        let depth = BracketDepthScanner.deepestBracketNesting(in: bytes)
        if depth > maximumBracketDepth { return .bracketsTooDeep(depth: depth) }
        return nil
    }
}
