import Foundation

/// Parses an API's base address.
enum APIAddress {
    /// The URL of a literal address from this module's source. A literal that does not parse is a
    /// programmer error, caught by the first test that touches the API.
    static func literal(_ text: StaticString) -> URL {
        guard let url = URL(string: "\(text)") else { preconditionFailure("not a URL: \(text)") }
        return url
    }
}
