#if !canImport(Security)
import KeychainCore

/// **Linux only.** `LAContext` for `kSecUseAuthenticationContext`: an authentication the keychain
/// reuses across calls (see ``AuthenticationContext``). Code that imports LocalAuthentication on
/// Apple platforms uses this name here.
public typealias LAContext = AuthenticationContext

extension AuthenticationContext {
    /// `LAContext.touchIDAuthenticationAllowableReuseDuration`: ``reuseDuration``.
    public var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { reuseDuration }
        set { reuseDuration = newValue }
    }
}
#endif
