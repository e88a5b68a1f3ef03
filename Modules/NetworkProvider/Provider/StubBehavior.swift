import Foundation

/// Whether and how a provider answers from samples instead of the network, as in Moya.
public enum StubBehavior: Sendable, Equatable {
    /// Use the network.
    case never
    /// Answer at once from the sample.
    case immediate
    /// Answer from the sample after this many seconds.
    case delayed(seconds: Double)
}

/// What a stubbed request answers.
public enum SampleResponse: Sendable {
    /// A response with this status and body.
    case networkResponse(Int, Data)
    /// A response with this status, headers and body.
    case response(statusCode: Int, headers: [String: String], data: Data)
    /// A failure.
    case networkError(NetworkError)
}
