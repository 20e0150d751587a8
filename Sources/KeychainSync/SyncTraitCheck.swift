// KeychainSync comes with the package trait `Sync` (swift-service-lifecycle): a package that uses
// the KeychainSync product enables it in its dependency,
// `.package(url: …, from: …, traits: ["Sync"])`. Without it the build stops here, with that fix,
// rather than at a missing module.
#if !Sync
#error("KeychainSync needs the SecureStorage package trait Sync: add traits: [\"Sync\"] to the .package line.")
#endif
