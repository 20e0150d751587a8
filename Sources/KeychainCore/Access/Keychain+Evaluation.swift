import Foundation

extension Keychain {
    /// Authenticates the user now, with one of `methods`, and records the authentication in
    /// `context`, as `LAContext.evaluatePolicy` does: reads of protected items through the
    /// context then open without another prompt while its ``AuthenticationContext/reuseDuration``
    /// lasts.
    ///
    /// ```swift
    /// let context = AuthenticationContext(reuseDuration: 30)
    /// try keychain.evaluateAuthentication([.biometry, .passcode], context: context, reason: "Unlock your vault")
    /// var query = Query(.genericPassword, [.service: "vault"], limit: .all)
    /// query.authentication = AuthenticationOptions(context: context)
    /// let items = try keychain.find(query, returning: .data)     // no prompt
    /// ```
    /// - Throws: `.userCanceled` (-128) when the user cancels; `.authFailed` (-25293) when the
    ///   authentication fails, no authenticator is installed, none of `methods` is available,
    ///   or the context was invalidated; `.interactionNotAllowed` when the context forbids
    ///   prompting.
    public func evaluateAuthentication(_ methods: Set<AuthenticationMethod>, context: AuthenticationContext,
                                       reason: String) throws(KeychainError) {
        if context.isInvalidated { throw KeychainError.authenticationContextInvalidated() }
        guard let authenticator else {
            throw KeychainError.noAuthenticatorInstalled()
        }
        guard !methods.intersection(authenticator.availableMethods).isEmpty else {
            throw KeychainError.noRequestedMethodAvailable(methods: methods)
        }
        _ = try authenticate(methods, with: authenticator, operation: "evaluate policy",
                             options: AuthenticationOptions(context: context, interaction: .allow, reason: reason))
    }
}
