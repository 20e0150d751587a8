// SecureStorageConfiguration needs swift-configuration, which this package brings with its trait
// Configuration (or Tools, its default): a client that declared `traits: []` asks for it by name.
#if !(Configuration || Tools)
#error("SecureStorageConfiguration needs the trait Configuration: .package(…, traits: [\"Configuration\"])")
#endif
