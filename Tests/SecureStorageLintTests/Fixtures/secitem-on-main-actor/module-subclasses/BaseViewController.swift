import UIKit

/// The app's base class: main-actor isolated through UIViewController.
class BaseViewController: UIViewController {}

/// A project type with an unusual base: isolated through its @MainActor protocol.
@MainActor
protocol Screen {}

/// Not isolated: a plain model, and an actor that conforms to a main-actor protocol's cousin.
final class TokenStore {}
