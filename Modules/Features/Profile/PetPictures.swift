import Domain
import Foundation
import Images

/// The flavor's photos as the profile screen shows them: a new one from the API, and any
/// photo's pixels, fetched and decoded off the main actor. Both the interactor's photo fetch
/// and the reactor's favourites browsing go through it.
struct PetPictures: Sendable {
    /// The smallest picture decoded: wider than most terminals are columns, and two pixels a
    /// row tall, so that a JPEG is scaled while it is decoded and still fills a large window.
    static let decodedSize = (width: 320, height: 200)

    let repository: any PetPhotoRepository

    /// A photo the API picks, or why none came.
    func randomPhoto() async -> Result<PetPhoto, PetPhotoError> {
        do throws(PetPhotoError) {
            return .success(try await repository.randomPhoto())
        } catch {
            return .failure(error)
        }
    }

    /// `photo`'s pixels, or why there are none.
    func image(of photo: PetPhoto) async -> (Bitmap?, String?) {
        do {
            let data = try await repository.imageData(for: photo)
            return (try await Self.decode(data), nil)
        } catch let error as PetPhotoError {
            return (nil, "The photo could not be fetched: \(error)")
        } catch {
            return (nil, "The photo could not be shown: \(error)")
        }
    }

    /// Decodes off the main actor: a large JPEG takes milliseconds.
    @concurrent private static func decode(_ data: Data) async throws(ImageError) -> Bitmap {
        try Bitmap(data: data, minimumSize: decodedSize)
    }
}
