import Domain
import Foundation
import NetworkProvider

/// Random dog photos from the Dog CEO API. The breed comes from the image's URL path
/// (`/breeds/<breed>[-<sub-breed>]/<file>`), since the API sends nothing else.
public struct DogPhotoRepository: PetPhotoRepository {
    private let provider: NetworkProvider<DogAPI>
    private let imageProvider: NetworkProvider<PetImage>
    private let baseURL: URL
    private let timeout: TimeInterval?

    /// Always `.dog`: the flavor that shows dogs uses this repository.
    public var pet: Pet { .dog }

    /// A repository asking `baseURL` through `provider`.
    public init(
        provider: NetworkProvider<DogAPI>, imageProvider: NetworkProvider<PetImage> = NetworkProvider(),
        baseURL: URL = DogAPI.defaultBaseURL, timeout: TimeInterval? = 10
    ) {
        self.provider = provider
        self.imageProvider = imageProvider
        self.baseURL = baseURL
        self.timeout = timeout
    }

    /// A random dog, with its breed read from the image's URL.
    public func randomPhoto() async throws(PetPhotoError) -> PetPhoto {
        let body = try await provider.decoded(
            DogImageResponse.self, from: DogAPI(.randomImage, baseURL: baseURL, timeout: timeout))
        guard body.status == "success" else { throw .malformedResponse("status \"\(body.status)\"") }
        let url = try URL.imageURL(body.message)
        return PetPhoto(
            id: url.lastPathComponent, pet: .dog, url: url, breed: Self.breed(fromImageURL: url))
    }

    /// `hound-afghan` in `…/breeds/hound-afghan/x.jpg` is "afghan hound": the sub-breed first,
    /// as people say it. `nil` when the path has no breed.
    package static func breed(fromImageURL url: URL) -> String? {
        let parts = url.pathComponents
        guard let index = parts.firstIndex(of: "breeds"), index + 2 < parts.count else { return nil }
        let words = parts[index + 1].split(separator: "-").map(String.init)
        guard let main = words.first, !main.isEmpty else { return nil }
        return (words.dropFirst() + [main]).joined(separator: " ")
    }

    /// The photo's image file, from its own host.
    public func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data {
        try await imageProvider.imageData(at: photo.url, timeout: timeout)
    }
}
