import Domain
import Foundation
import NetworkProvider

/// Random cat photos from The Cat API. The breed is the first of the image's `breeds`, when
/// it has any.
public struct CatPhotoRepository: PetPhotoRepository {
    private let provider: NetworkProvider<CatAPI>
    private let imageProvider: NetworkProvider<PetImage>
    private let baseURL: URL
    private let apiKey: String?
    private let timeout: TimeInterval?

    /// Always `.cat`: the flavor that shows cats uses this repository.
    public var pet: Pet { .cat }

    /// A repository asking `baseURL` through `provider`, with `apiKey` when there is one.
    public init(
        provider: NetworkProvider<CatAPI>, imageProvider: NetworkProvider<PetImage> = NetworkProvider(),
        baseURL: URL = CatAPI.defaultBaseURL, apiKey: String? = nil,
        timeout: TimeInterval? = 10
    ) {
        self.provider = provider
        self.imageProvider = imageProvider
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
    }

    /// A random cat, with its breed and size when the answer has them.
    public func randomPhoto() async throws(PetPhotoError) -> PetPhoto {
        let images = try await provider.decoded(
            [CatImage].self, from: CatAPI(.searchImages, baseURL: baseURL, apiKey: apiKey, timeout: timeout))
        guard let image = images.first else { throw .malformedResponse("no image in the answer") }
        let url = try URL.imageURL(image.url)
        let breed = image.breeds?.lazy.compactMap(\.name).first { !$0.isEmpty }
        return PetPhoto(
            id: image.id, pet: .cat, url: url, breed: breed, width: image.width, height: image.height)
    }

    /// The photo's image file, from its own host.
    public func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data {
        try await imageProvider.imageData(at: photo.url, timeout: timeout)
    }
}
