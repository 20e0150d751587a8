// KeychainSync needs swift-service-lifecycle, which this package brings with its trait Sync (or
// Tools, its default): a client that declared `traits: []` asks for it by name.
#if !(Sync || Tools)
#error("KeychainSync needs the trait Sync: .package(…, traits: [\"Sync\"])")
#endif
