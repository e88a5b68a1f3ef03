import Domain
import Foundation
import NetworkProvider

extension PetPhotoError {
    /// The app's reason for a failed request.
    init(_ error: NetworkError) {
        switch error {
        case .transport(let failure): self = .offline(failure.message)
        case .timeout: self = .timeout
        case .cancelled: self = .cancelled
        case .statusCode(let response): self = .http(status: response.statusCode, message: nil)
        case .decoding(_, let codingPath, _):
            self = .malformedResponse(
                codingPath.isEmpty ? "not the documented JSON" : "at \(codingPath.joined(separator: "."))")
        case .invalidURL(let url): self = .offline("the API address \(url) is not valid")
        case .encoding, .responseTooLarge: self = .malformedResponse("\(error)")
        }
    }

    /// An HTTP error, with the API's own message when its body has one.
    static func http(_ response: Response, messageKey: String = "message") -> PetPhotoError {
        let message = try? response.map(String.self, atKeyPath: messageKey)
        return .http(status: response.statusCode, message: message)
    }
}

extension NetworkProvider {
    /// The body of `target`'s answer decoded as `Body`, or the reason there is none as a
    /// ``PetPhotoError``: an error status (with the API's `message`), a failed request, or JSON
    /// that is not `Body`.
    func decoded<Body: Decodable>(_ body: Body.Type, from target: Target) async throws(PetPhotoError) -> Body
    {
        let response: Response
        do {
            response = try await request(target)
        } catch {
            throw PetPhotoError(error)
        }
        guard (200..<300).contains(response.statusCode) else { throw .http(response) }
        do {
            return try response.map(Body.self)
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
