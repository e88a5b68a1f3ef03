import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TargetType {
    /// The URL: `baseURL` joined with `path`, keeping any query in either.
    ///
    /// The path and its query are percent-encoded where they need it (``PercentEncoding``): a
    /// space, `ü`, `|` or `"` becomes its escape and an escape already written is kept.
    ///
    /// - Throws: ``NetworkError/invalidURL(_:)`` when `baseURL` has no scheme or host.
    public func url() throws -> URL {
        let baseURL = baseURL  // often computed, by parsing a literal
        guard baseURL.scheme != nil, baseURL.host != nil else {
            throw NetworkError.invalidURL(baseURL.absoluteString + path)
        }
        // Built as text: the base as it is, then the encoded path and query. URLComponents'
        // setters stop the process on text they do not accept, and this is also faster. The
        // delimiters are ASCII, so the text is scanned as UTF-8 rather than as Characters.
        let absolute = baseURL.absoluteString
        var baseEnd = absolute.utf8.firstIndex(of: UInt8(ascii: "#")) ?? absolute.endIndex
        var baseQuery: Substring = ""
        if let questionMark = absolute.utf8[..<baseEnd].firstIndex(of: UInt8(ascii: "?")) {
            baseQuery = absolute[absolute.utf8.index(after: questionMark)..<baseEnd]
            baseEnd = questionMark
        }
        var pathPart = Substring(path)
        var pathQuery = ""
        if let questionMark = pathPart.utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathQuery = PercentEncoding.encode(
                pathPart[pathPart.utf8.index(after: questionMark)...], as: .query)
            pathPart = pathPart[..<questionMark]
        }
        let tail = pathPart[(pathPart.utf8.firstIndex { $0 != UInt8(ascii: "/") } ?? pathPart.endIndex)...]
        var text = String(absolute[..<baseEnd])
        if !tail.isEmpty {
            if text.utf8.last != UInt8(ascii: "/") { text += "/" }
            text += PercentEncoding.encode(tail, as: .path)
        } else if baseURL.path.isEmpty {
            text += "/"
        }
        switch (baseQuery.isEmpty, pathQuery.isEmpty) {
        case (true, true): break
        case (false, true): text += "?" + baseQuery
        case (true, false): text += "?" + pathQuery
        case (false, false): text += "?" + baseQuery + "&" + pathQuery
        }
        guard let url = URL(string: text) else {
            throw NetworkError.invalidURL(baseURL.absoluteString + path)
        }
        return url
    }

    /// The request this target describes: the original RIBs-todo app's `asRequest()`.
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
        // Each setter of FoundationNetworking's URLRequest does work (the method is normalized),
        // so only what differs from a new request's defaults (`GET`, no body) is set.
        if method != .get { request.httpMethod = method.rawValue }
        if let body { request.httpBody = body }
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
