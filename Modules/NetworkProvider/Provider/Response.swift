import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response: status, headers, body, and the request that was sent.
public struct Response: Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public var statusCode: Int
    /// The body.
    public var data: Data
    /// The headers, as received (names in the server's case).
    public var headers: [String: String]
    /// The request that produced this response (after plugins prepared it).
    public var request: URLRequest
    /// The final URL, after redirects.
    public var url: URL?

    /// A response as a transport, a stub or a test makes one, with the whole body in `data`.
    public init(
        statusCode: Int, data: Data, headers: [String: String] = [:], request: URLRequest, url: URL? = nil
    ) {
        self.statusCode = statusCode
        self.data = data
        self.headers = headers
        self.request = request
        self.url = url ?? request.url
    }

    /// The header `name`, compared case-insensitively.
    public func value(forHTTPHeaderField name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// `Status Code: 200, Data Length: 42`, as Moya prints it.
    public var description: String { "Status Code: \(statusCode), Data Length: \(data.count)" }

    /// Self, if the status code is 200–299.
    ///
    /// - Throws: ``NetworkError/statusCode(_:)``.
    public func filterSuccessfulStatusCodes() throws -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Self, if the status code is in `statusCodes`.
    ///
    /// - Throws: ``NetworkError/statusCode(_:)``.
    public func filter<R: RangeExpression<Int>>(statusCodes: R) throws -> Response {
        guard statusCodes.contains(statusCode) else { throw NetworkError.statusCode(self) }
        return self
    }

    /// The body decoded as `type`, optionally from a nested key path such as `"data.items"`.
    ///
    /// - Throws: ``NetworkError/decoding(_:codingPath:underlying:)`` naming where decoding failed.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder()
    ) throws -> D {
        do {
            guard let keyPath, !keyPath.isEmpty else { return try decoder.decode(D.self, from: data) }
            return try decoder.decode(KeyPathDecodable<D>.self, from: data, keyPath: keyPath).value
        } catch let error as DecodingError {
            throw NetworkError.decoding(self, codingPath: Self.codingPath(of: error), underlying: error)
        } catch {
            throw NetworkError.decoding(self, codingPath: [], underlying: error)
        }
    }

    /// The body as UTF-8 text, or the string at a key path of a JSON body.
    ///
    /// - Throws: ``NetworkError/decoding(_:codingPath:underlying:)``.
    public func mapString(atKeyPath keyPath: String? = nil) throws -> String {
        if let keyPath { return try map(String.self, atKeyPath: keyPath) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw NetworkError.decoding(
                self, codingPath: [], underlying: CocoaError(.fileReadInapplicableStringEncoding))
        }
        return text
    }

    private static func codingPath(of error: DecodingError) -> [String] {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                context
            case .keyNotFound(let key, let context):
                DecodingError.Context(
                    codingPath: context.codingPath + [key], debugDescription: context.debugDescription)
            @unknown default: nil
            }
        return context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } ?? []
    }
}

/// Decodes the value at a dotted key path of a JSON document.
private struct KeyPathDecodable<Value: Decodable>: Decodable {
    let value: Value

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        guard let path = decoder.userInfo[.keyPath] as? [String], let first = path.first else {
            value = try Value(from: decoder)
            return
        }
        var container = try decoder.container(keyedBy: Key.self)
        for component in path.dropLast() {
            container = try container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: component))
        }
        value = try container.decode(Value.self, forKey: Key(stringValue: path.last ?? first))
    }
}

extension CodingUserInfoKey {
    fileprivate static let keyPath: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "ribcage.keyPath") else {
            preconditionFailure("a non-empty raw value always makes a CodingUserInfoKey")
        }
        return key
    }()
}

extension JSONDecoder {
    fileprivate func decode<Value: Decodable>(
        _ type: KeyPathDecodable<Value>.Type, from data: Data, keyPath: String
    ) throws -> KeyPathDecodable<Value> {
        // A copy, so the caller's decoder is not changed.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.userInfo = userInfo
        decoder.userInfo[.keyPath] = keyPath.split(separator: ".").map(String.init)
        return try decoder.decode(type, from: data)
    }
}
