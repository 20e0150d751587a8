// The linter needs swift-syntax, which this package brings with its trait Lint (on by default):
// a client that declared `traits: []` asks for it by name.
#if !Lint
#error("keychain-lint needs the trait Lint: .package(…, traits: [\"Lint\"])")
#endif
