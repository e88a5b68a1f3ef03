import Foundation

/// Another package, as the package-level graph draws it: what `swift package show-dependencies`
/// and `Package.resolved` say about it.
package struct ExternalPackage: Sendable, Equatable, Codable {
    /// SwiftPM's identity: `swift-nio`.
    package var identity: String
    /// The resolved version, or a branch or revision; `nil` when unknown.
    package var version: String?
    /// Where it comes from.
    package var url: String?
    /// The identities of the packages it depends on.
    package var dependencies: [String]

    package init(identity: String, version: String?, url: String?, dependencies: [String]) {
        self.identity = identity
        self.version = version
        self.url = url
        self.dependencies = dependencies
    }
}
