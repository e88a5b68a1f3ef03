import Domain
import Foundation
import NetworkProvider

extension PetPhotoError {
    /// The app's reason for a failed request, from the one place a ``NetworkError`` becomes one:
    /// an error status carries the API's own `message` when its body has one (Dog CEO and The
    /// Cat API both send it).
    init(_ error: NetworkError) {
        switch error {
        case .transport(let failure): self = .offline(failure.message)
        // Out of descriptors or memory: no request can leave, as when offline.
        case .transportUnavailable(let failure): self = .offline(failure.description)
        case .timeout: self = .timeout
        case .cancelled: self = .cancelled
        case .statusCode(let response):
            // The message is a courtesy: a body without one still says which status came.
            // A 404 without one names the address asked: a wrong base URL is the usual cause.
            let message = try? response.map(String.self, atKeyPath: "message")
            let address = (response.url ?? response.request.url).map { "no answer at \($0.absoluteString)" }
            self = .http(
                status: response.statusCode, message: message ?? (response.statusCode == 404 ? address : nil))
        case .decoding(_, let codingPath, _):
            self = .malformedResponse(
                codingPath.isEmpty ? "not the documented JSON" : "at \(codingPath.joined(separator: "."))")
        case .invalidURL(let url): self = .offline("the API address \(url) is not valid")
        case .encoding, .responseTooLarge: self = .malformedResponse("\(error)")
        }
    }
}

extension NetworkProvider {
    /// The body of `target`'s answer decoded as `Body`. The target's validation (`.successCodes`)
    /// turns an error status into a ``NetworkError`` like any other failure, and each becomes a
    /// ``PetPhotoError`` through ``PetPhotoError/init(_:)``.
    func decoded<Body: Decodable>(_ body: Body.Type, from target: Target) async throws(PetPhotoError) -> Body
    {
        do {
            return try await request(target).map(Body.self)
        } catch let error as NetworkError {
            throw PetPhotoError(error)
        } catch {
            throw .malformedResponse("\(error)")
        }
    }
}

extension URL {
    /// An absolute `http(s)` URL from an API's answer, or ``PetPhotoError/malformedResponse(_:)``.
    static func imageURL(_ text: String) throws(PetPhotoError) -> URL {
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw .malformedResponse("\"\(text)\" is not an image URL")
        }
        return url
    }
}
