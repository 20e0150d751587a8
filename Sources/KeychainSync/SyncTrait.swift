// KeychainSync needs swift-service-lifecycle, which this package brings with its trait Sync (on by
// default, and with Tool): a client that declared `traits: []` asks for it by name.
#if !Sync
#error("KeychainSync needs the trait Sync: .package(…, traits: [\"Sync\"])")
#endif
