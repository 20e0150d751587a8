// The keychain tool needs swift-argument-parser, which this package brings with its trait Tool
// (on by default): a client that declared `traits: []` asks for it by name.
#if !Tool
#error("the keychain tool needs the trait Tool: .package(…, traits: [\"Tool\"])")
#endif
