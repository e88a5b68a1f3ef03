import Foundation

/// An API endpoint, described as data, as in Moya:
///
/// ```swift
/// enum DogAPI: TargetType {
///     case randomImage
///
///     var baseURL: URL { URL(string: "https://dog.ceo/api")! }
///     var path: String { "breeds/image/random" }
///     var method: HTTPMethod { .get }
///     var task: RequestTask { .requestPlain }
///     var validationType: ValidationType { .successCodes }
/// }
///
/// let response = try await NetworkProvider<DogAPI>().request(.randomImage)
/// ```
///
/// `path` is joined to `baseURL` as a path and may carry its own query (`search?q=cat`): unlike
/// Moya, a `?` in the path is never escaped into `%3F`. Both are percent-encoded where they need
/// it (`q=a b` is sent as `q=a%20b`), and an escape already written (`%2F`) is kept.
public protocol TargetType: Sendable {
    /// The API's base URL; it may have a path of its own.
    var baseURL: URL { get }
    /// The endpoint's path under `baseURL`, optionally with a query.
    var path: String { get }
    /// The HTTP method. Default `GET`.
    var method: HTTPMethod { get }
    /// The body and query. Default ``RequestTask/requestPlain``.
    var task: RequestTask { get }
    /// Headers to send.
    var headers: [String: String]? { get }
    /// Which status codes are success. Default ``ValidationType/none``, as in Moya.
    var validationType: ValidationType { get }
    /// A canned body for stubbed requests.
    var sampleData: Data { get }
    /// Seconds the whole request may take, redirects and body included, before it fails with
    /// ``NetworkError/timeout(seconds:)``; `nil` means 60.
    var timeout: TimeInterval? { get }
    /// Headers never sent to another origin when a redirect leads there, compared
    /// case-insensitively. `Authorization`, `Proxy-Authorization`, `Cookie` and `x-api-key` never
    /// are, whatever this says. Default none.
    var sensitiveHeaders: Set<String> { get }
}

extension TargetType {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No body.
    public var task: RequestTask { .requestPlain }
    /// No headers.
    public var headers: [String: String]? { nil }
    /// Every status code is accepted.
    public var validationType: ValidationType { .none }
    /// An empty body.
    public var sampleData: Data { Data() }
    /// 60 seconds.
    public var timeout: TimeInterval? { nil }
    /// None beyond the credentials that are always dropped.
    public var sensitiveHeaders: Set<String> { [] }
}

/// The original RIBs-todo app's name for ``TargetType``.
public typealias RemoteTargetType = TargetType
