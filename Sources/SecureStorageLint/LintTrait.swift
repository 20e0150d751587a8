// The linter needs swift-syntax, which this package brings with its trait Tools (its default):
// a client that declared `traits: []` asks for it by name.
#if !Tools
#error("keychain-lint needs the trait Tools: .package(…, traits: [\"Tools\"])")
#endif
