/// The bus name, object paths and interface names of the freedesktop Secret Service API, 0.2.
package enum SecretServiceNames {
    /// The well-known bus name the provider owns.
    package static let busName = "org.freedesktop.secrets"
    /// The service object.
    package static let servicePath = "/org/freedesktop/secrets"
    /// Collections live under this path.
    package static let collectionPrefix = "/org/freedesktop/secrets/collection/"
    /// Aliases (`default`) resolve under this path.
    package static let aliasPrefix = "/org/freedesktop/secrets/aliases/"
    /// Sessions live under this path.
    package static let sessionPrefix = "/org/freedesktop/secrets/session/"
    /// Prompts live under this path.
    package static let promptPrefix = "/org/freedesktop/secrets/prompt/"
    /// "No object": a method that needs no prompt returns it in place of a prompt path.
    package static let noObject = "/"

    /// `org.freedesktop.Secret.Service`
    package static let serviceInterface = "org.freedesktop.Secret.Service"
    /// `org.freedesktop.Secret.Collection`
    package static let collectionInterface = "org.freedesktop.Secret.Collection"
    /// `org.freedesktop.Secret.Item`
    package static let itemInterface = "org.freedesktop.Secret.Item"
    /// `org.freedesktop.Secret.Session`
    package static let sessionInterface = "org.freedesktop.Secret.Session"
    /// `org.freedesktop.Secret.Prompt`
    package static let promptInterface = "org.freedesktop.Secret.Prompt"
}
