// SecureStorageConfiguration needs swift-configuration, which this package brings with its trait
// Configuration (on by default): a client that declared `traits: []` asks for it by name.
#if !Configuration
#error("SecureStorageConfiguration needs the trait Configuration: .package(…, traits: [\"Configuration\"])")
#endif
