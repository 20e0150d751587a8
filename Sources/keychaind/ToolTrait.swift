// keychaind needs swift-argument-parser, which this package brings with its trait Tools (its
// default): a client that declared `traits: []` asks for it by name.
#if !Tools
#error("keychaind needs the trait Tools: .package(…, traits: [\"Tools\"])")
#endif
