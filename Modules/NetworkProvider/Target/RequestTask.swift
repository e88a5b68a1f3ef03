import Foundation

/// What a request carries, as Moya's `Task`.
public enum RequestTask: Sendable {
    /// No body, no extra query.
    case requestPlain
    /// A raw body.
    case requestData(Data, contentType: String? = nil)
    /// A JSON body made from `value` with `encoder`.
    case requestJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder = JSONEncoder())
    /// Query parameters, added to those already in the URL.
    case requestParameters([URLQueryItem])
    /// A body of `application/x-www-form-urlencoded` fields.
    case requestFormURLEncoded([URLQueryItem])
    /// A `multipart/form-data` body.
    case uploadMultipart([MultipartFormData])
    /// A raw body and query parameters together.
    case requestCompositeData(body: Data, query: [URLQueryItem])
}

/// One part of a `multipart/form-data` body.
public struct MultipartFormData: Sendable, Equatable {
    /// The form field name.
    public var name: String
    /// The file name, for a file part.
    public var fileName: String?
    /// The part's content type, e.g. `image/jpeg`.
    public var mimeType: String?
    /// The part's bytes.
    public var data: Data

    /// A form field `name` holding `data`; `fileName` and `mimeType`, when given, become its
    /// `Content-Disposition` filename and its `Content-Type`.
    public init(name: String, data: Data, fileName: String? = nil, mimeType: String? = nil) {
        self.name = name
        self.data = data
        self.fileName = fileName
        self.mimeType = mimeType
    }
}

/// Which status codes count as success; others are ``NetworkError/statusCode(_:)``.
public enum ValidationType: Sendable, Equatable {
    /// Every status code is accepted.
    case none
    /// 200–299.
    case successCodes
    /// 200–399.
    case successAndRedirectCodes
    /// Exactly these codes.
    case customCodes([Int])

    /// Whether `statusCode` passes.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(statusCode)
        case .successAndRedirectCodes: (200..<400).contains(statusCode)
        case .customCodes(let codes): codes.contains(statusCode)
        }
    }
}
