import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hooks into every request of a provider, as Moya's `PluginType`. All default to doing nothing.
///
/// `prepare` and `process` are applied in the order the plugins were given.
public protocol PluginType: Sendable {
    /// Changes the request before it is sent (add a header, sign it…).
    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest
    /// Called right before each attempt is sent.
    func willSend(_ request: URLRequest, target: any TargetType)
    /// Called with each attempt's outcome, before validation and retries.
    func didReceive(_ result: Result<Response, NetworkError>, target: any TargetType)
    /// Changes the final outcome before the caller sees it.
    func process(_ result: Result<Response, NetworkError>, target: any TargetType) -> Result<
        Response, NetworkError
    >
}

extension PluginType {
    /// Returns `request` unchanged.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest { request }
    /// Does nothing.
    public func willSend(_ request: URLRequest, target: any TargetType) {}
    /// Does nothing.
    public func didReceive(_ result: Result<Response, NetworkError>, target: any TargetType) {}
    /// Returns `result` unchanged.
    public func process(_ result: Result<Response, NetworkError>, target: any TargetType) -> Result<
        Response, NetworkError
    > {
        result
    }
}
