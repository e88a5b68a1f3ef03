import Domain
import Foundation
import NetworkProvider

/// A photo's image file at its own address (on the API's image host), as a ``TargetType``: the
/// bytes of a JPEG or a PNG.
public struct PetImage: TargetType {
    /// The image's address.
    public var baseURL: URL
    /// Seconds before the download gives up.
    public var timeout: TimeInterval?

    /// The image at `url`.
    public init(url: URL, timeout: TimeInterval? = 10) {
        baseURL = url
        self.timeout = timeout
    }

    /// Nothing after the image's own address.
    public var path: String { "" }

    /// Images only.
    public var headers: [String: String]? { ["Accept": "image/jpeg, image/png"] }

    /// 2xx only: an error page is not an image.
    public var validationType: ValidationType { .successCodes }
}

extension NetworkProvider where Target == PetImage {
    /// The image's bytes, or the reason they could not be fetched.
    func imageData(at url: URL, timeout: TimeInterval?) async throws(PetPhotoError) -> Data {
        do {
            return try await request(PetImage(url: url, timeout: timeout)).data
        } catch {
            throw PetPhotoError(error)
        }
    }
}
