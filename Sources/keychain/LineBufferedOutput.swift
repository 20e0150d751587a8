@preconcurrency import SecureStorageFoundation

/// Standard output written line by line, wherever it goes.
///
/// C's standard output (which `print` writes through) is line-buffered only on a terminal; into
/// a pipe, a file or journald it is block-buffered, so a waiting `keychain sync join` would keep
/// its approval code, and `keychain sync watch` its progress lines, in the buffer until it exits.
/// Each line is written when it ends instead: commands print little, and the one that prints
/// most, `list`, spends far longer reading items than writing lines.
enum LineBufferedOutput {
    /// Makes standard output line-buffered; call before anything is printed.
    static func enable() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }
}
