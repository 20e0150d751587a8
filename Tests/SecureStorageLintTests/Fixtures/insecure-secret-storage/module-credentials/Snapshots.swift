import Foundation

// Another type's constant of the same name (`defaultsKey`) is another key: harmless here.
struct WidgetSnapshots {
    static let defaultsKey = "widgetSnapshots"
    static func write(_ data: Data, to defaults: UserDefaults) {
        defaults.set(data, forKey: defaultsKey)
    }
}
