import Foundation

/// Where pet photos come from: the flavor's API.
public protocol PetPhotoRepository: Sendable {
    /// Which animal this repository shows.
    var pet: Pet { get }
    /// A photo the API picks at random; each call asks again.
    ///
    /// - Throws: ``PetPhotoError`` saying why there is none.
    func randomPhoto() async throws(PetPhotoError) -> PetPhoto
    /// The bytes of `photo`'s image (a JPEG or a PNG), as its host serves them.
    ///
    /// - Throws: ``PetPhotoError`` saying why they could not be fetched.
    func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data
}

/// Why no photo came. Each case reads as a status line.
public enum PetPhotoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection: refused, no route, host not found.
    case offline(String)
    /// No answer in time.
    case timeout
    /// The API answered with an error status.
    case http(status: Int, message: String?)
    /// The answer was not the JSON the API documents.
    case malformedResponse(String)
    /// The request was cancelled (a newer refresh replaced it).
    case cancelled

    /// A sentence for the status line.
    public var description: String {
        switch self {
        case .offline(let reason): "No network: \(reason)"
        case .timeout: "The photo request timed out."
        case .http(let status, let message):
            "The API answered \(status)" + (message.map { ": \($0)" } ?? ".")
        case .malformedResponse(let reason): "The API's answer was malformed: \(reason)"
        case .cancelled: "The request was cancelled."
        }
    }
}
