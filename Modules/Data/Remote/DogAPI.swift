import Foundation
import NetworkProvider

/// The Dog CEO API (`https://dog.ceo/api`), as a ``TargetType``. No key is needed.
public struct DogAPI: TargetType {
    /// Where the public API lives; the app asks it unless `TODOAPP_API_BASE_URL` says otherwise.
    public static let defaultBaseURL = APIAddress.literal("https://dog.ceo/api")

    /// The endpoints the app uses.
    public enum Endpoint: Sendable, Equatable {
        /// `GET /breeds/image/random`: `{"message": "<image URL>", "status": "success"}`.
        case randomImage
    }

    /// The API's address; tests and `TODOAPP_API_BASE_URL` point it elsewhere.
    public var baseURL: URL
    /// The endpoint this target asks.
    public var endpoint: Endpoint
    /// Seconds before a request gives up.
    public var timeout: TimeInterval?

    /// A target for `endpoint` at `baseURL`, giving up after `timeout` seconds.
    public init(_ endpoint: Endpoint, baseURL: URL = DogAPI.defaultBaseURL, timeout: TimeInterval? = 10) {
        self.endpoint = endpoint
        self.baseURL = baseURL
        self.timeout = timeout
    }

    /// `breeds/image/random`.
    public var path: String {
        switch endpoint {
        case .randomImage: "breeds/image/random"
        }
    }

    /// `Accept: application/json`.
    public var headers: [String: String]? { ["Accept": "application/json"] }

    /// 2xx only: Dog CEO answers errors with a status and a JSON `message`, which
    /// ``Domain/PetPhotoError/http(status:message:)`` shows.
    public var validationType: ValidationType { .successCodes }

    /// A documented answer, served by `--offline`.
    public var sampleData: Data {
        Data(
            #"{"message":"https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg","status":"success"}"#
                .utf8)
    }
}

/// The body of `/breeds/image/random`, and of Dog CEO's errors.
struct DogImageResponse: Decodable {
    var message: String
    var status: String
}
