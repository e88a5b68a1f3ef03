import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a target wants to be authorized.
public enum AuthorizationType: Sendable, Equatable {
    /// `Authorization: Basic <token>`.
    case basic
    /// `Authorization: Bearer <token>`.
    case bearer
    /// `Authorization: <scheme> <token>`.
    case custom(String)
}

/// A target that says whether, and how, to send the access token.
public protocol AccessTokenAuthorizable: TargetType {
    /// The scheme, or `nil` to send no token for this target.
    var authorizationType: AuthorizationType? { get }
}

/// Adds `Authorization: <scheme> <token>` to targets that are ``AccessTokenAuthorizable``.
public struct AccessTokenPlugin: PluginType {
    private let tokenClosure: @Sendable (any TargetType) -> String?

    /// Creates the plugin; `tokenClosure` is asked for the token on every request (return `nil`
    /// to send none).
    public init(tokenClosure: @escaping @Sendable (any TargetType) -> String?) {
        self.tokenClosure = tokenClosure
    }

    /// Adds the header when the target asks for it and a token is available.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let authorizable = target as? any AccessTokenAuthorizable,
            let type = authorizable.authorizationType, let token = tokenClosure(target)
        else { return request }
        let scheme =
            switch type {
            case .basic: "Basic"
            case .bearer: "Bearer"
            case .custom(let custom): custom
            }
        var request = request
        request.setValue("\(scheme) \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
