import Foundation

// Test vectors and identifiers: random-looking, but not named like credentials.
let sha256OfEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
let identifier = "123e4567-e89b-12d3-a456-426614174000"
let bundle = "com.example.secure-storage.keychain"
let url = "https://example.com/api/v1/items?page=2"

// Named like credentials, but placeholders, prose and interpolations.
let apiKey = "YOUR_API_KEY_HERE"
let passphrase = "correct horse battery staple"
let secret = String(repeating: "a", count: 40)
let authHeader = "Bearer \(token)"
