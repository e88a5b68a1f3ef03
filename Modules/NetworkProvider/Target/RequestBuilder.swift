import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TargetType {
    /// The URL: `baseURL` joined with `path`, keeping any query in either.
    public func url() throws -> URL {
        // Fast path (a third of the cost): no query on either side, so plain path appending
        // cannot mangle one. URLComponents handles every other case.
        if !path.contains("?"), baseURL.query == nil, baseURL.scheme != nil, baseURL.host != nil {
            let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
            return trimmed.isEmpty ? baseURL : baseURL.appendingPathComponent(trimmed)
        }
        var pathPart = path
        var pathQuery: String?
        if let questionMark = path.firstIndex(of: "?") {
            pathPart = String(path[..<questionMark])
            pathQuery = String(path[path.index(after: questionMark)...])
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            components.scheme != nil, components.host != nil
        else {
            throw NetworkError.invalidURL(baseURL.absoluteString + path)
        }
        let base =
            components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        let tail = pathPart.hasPrefix("/") ? String(pathPart.dropFirst()) : pathPart
        let encodedTail = tail.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? tail
        components.percentEncodedPath = tail.isEmpty ? (base.isEmpty ? "/" : base) : "\(base)/\(encodedTail)"
        if let pathQuery, !pathQuery.isEmpty {
            let existing = components.percentEncodedQuery.map { "\($0)&" } ?? ""
            components.percentEncodedQuery = existing + pathQuery
        }
        guard let url = components.url else { throw NetworkError.invalidURL(baseURL.absoluteString + path) }
        return url
    }

    /// The request this target describes: the seeds' `asRequest()`.
    public func asRequest() throws -> URLRequest {
        var url = try url()
        var body: Data?
        var contentType: String?
        switch task {
        case .requestPlain:
            break
        case .requestData(let data, let type):
            body = data
            contentType = type
        case .requestJSONEncodable(let value, let encoder):
            do {
                body = try encoder.encode(value)
            } catch {
                throw NetworkError.encoding(underlying: error)
            }
            contentType = "application/json"
        case .requestParameters(let items):
            url = try Self.appending(items, to: url)
        case .requestFormURLEncoded(let items):
            body = Data(Self.formEncoded(items).utf8)
            contentType = "application/x-www-form-urlencoded; charset=utf-8"
        case .uploadMultipart(let parts):
            let boundary = "ribcage.boundary.\(UUID().uuidString)"
            body = Self.multipartBody(parts, boundary: boundary)
            contentType = "multipart/form-data; boundary=\(boundary)"
        case .requestCompositeData(let data, let items):
            url = try Self.appending(items, to: url)
            body = data
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers ?? [:] { request.setValue(value, forHTTPHeaderField: name) }
        if let timeout { request.timeoutInterval = timeout }
        return request
    }

    private static func appending(_ items: [URLQueryItem], to url: URL) throws -> URL {
        guard !items.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw NetworkError.invalidURL(url.absoluteString)
        }
        let existing = components.percentEncodedQuery.map { "\($0)&" } ?? ""
        components.percentEncodedQuery = existing + formEncoded(items)
        guard let result = components.url else { throw NetworkError.invalidURL(url.absoluteString) }
        return result
    }

    /// `name=value&…`, with everything but unreserved characters percent-encoded.
    static func formEncoded(_ items: [URLQueryItem]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }
        return items.map { "\(encode($0.name))=\(encode($0.value ?? ""))" }.joined(separator: "&")
    }

    private static func multipartBody(_ parts: [MultipartFormData], boundary: String) -> Data {
        var body = Data()
        for part in parts {
            var disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { disposition += "; filename=\"\(fileName)\"" }
            body.append(Data("--\(boundary)\r\n\(disposition)\r\n".utf8))
            if let mimeType = part.mimeType { body.append(Data("Content-Type: \(mimeType)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }
}
