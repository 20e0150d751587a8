import Foundation

final class Store {
    func save(state: Session, profile: Profile, value: String, url: URL) throws {
        UserDefaults.standard.set(try JSONEncoder().encode(state), forKey: "s") // expect: insecure-secret-storage
        UserDefaults.standard.set(value, forKey: DefaultsKeys.current) // expect: insecure-secret-storage
        let data = try PropertyListEncoder().encode(state)
        try data.write(to: url) // expect: insecure-secret-storage
        UserDefaults.standard.set(try JSONEncoder().encode(profile), forKey: "p")
        UserDefaults.standard.set(value, forKey: DefaultsKeys.theme)
    }
}
