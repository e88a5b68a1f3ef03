import Foundation
import NetworkProvider

/// The Cat API (`https://api.thecatapi.com/v1`), as a ``TargetType``. The `x-api-key` header is
/// optional; without it the API serves a basic set of images. `NetworkLoggerPlugin` redacts it.
public struct CatAPI: TargetType {
    /// Where the public API lives; the app asks it unless `TODOAPP_API_BASE_URL` says otherwise.
    public static let defaultBaseURL = APIAddress.literal("https://api.thecatapi.com/v1")

    /// The endpoints the app uses.
    public enum Endpoint: Sendable, Equatable {
        /// `GET /images/search`: `[{"id", "url", "width", "height", "breeds": [...]}]`.
        case searchImages
    }

    /// The API's address; tests and `TODOAPP_API_BASE_URL` point it elsewhere.
    public var baseURL: URL
    /// The endpoint this target asks.
    public var endpoint: Endpoint
    /// The key, when there is one (the app reads `CAT_API_KEY`).
    public var apiKey: String?
    /// Seconds before a request gives up.
    public var timeout: TimeInterval?

    /// A target for `endpoint` at `baseURL`, with `apiKey` when there is one, giving up after
    /// `timeout` seconds.
    public init(
        _ endpoint: Endpoint, baseURL: URL = CatAPI.defaultBaseURL, apiKey: String? = nil,
        timeout: TimeInterval? = 10
    ) {
        self.endpoint = endpoint
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// `images/search`.
    public var path: String {
        switch endpoint {
        case .searchImages: "images/search"
        }
    }

    /// `Accept: application/json`, and `x-api-key` when there is a key.
    public var headers: [String: String]? {
        var headers = ["Accept": "application/json"]
        if let apiKey, !apiKey.isEmpty { headers["x-api-key"] = apiKey }
        return headers
    }

    /// 2xx only: The Cat API answers a missing or wrong key with 401 and a JSON `message`, which
    /// ``Domain/PetPhotoError/http(status:message:)`` shows.
    public var validationType: ValidationType { .successCodes }

    /// A documented answer, served by `--offline`.
    public var sampleData: Data {
        Data(
            #"[{"id":"ebv","url":"https://cdn2.thecatapi.com/images/ebv.jpg","width":176,"height":540,"breeds":[{"id":"abys","name":"Abyssinian"}]}]"#
                .utf8)
    }
}

/// One image of `/images/search`. Only `id` and `url` are guaranteed; sizes may be `null`.
struct CatImage: Decodable {
    struct Breed: Decodable {
        var name: String?
    }

    var id: String
    var url: String
    var width: Int?
    var height: Int?
    var breeds: [Breed]?
}
