import Domain
import Foundation
import Synchronization

/// Pet photos from a list of answers given in turn, the last one repeating, for tests and
/// previews. With no answers, every request fails as offline. A request can be held until the
/// test lets it go (``holdNextRequest(answeringWhenCancelled:)``).
public final class InMemoryPetPhotoRepository: PetPhotoRepository {
    /// The animal given at creation; the answers are not checked against it.
    public let pet: Pet
    private let answers: Mutex<(list: [Result<PetPhoto, PetPhotoError>], next: Int, requests: Int)>
    private let images: [URL: Data]
    /// The holds for the next requests, in turn.
    private let holds = Mutex<[HeldPhotoRequest]>([])

    /// A repository of `pet` photos answering with `answers` in turn, and with the bytes in
    /// `images` for the photos' URLs.
    public init(pet: Pet, answers: [Result<PetPhoto, PetPhotoError>], images: [URL: Data] = [:]) {
        self.pet = pet
        self.answers = Mutex((answers, 0, 0))
        self.images = images
    }

    /// How many photos were asked for so far.
    public var requestCount: Int { answers.withLock { $0.requests } }

    /// Holds the next request not yet held: it takes its answer in turn when it comes, and
    /// gives it once released. A cancelled request fails at once with ``PetPhotoError/cancelled``,
    /// as the network transport's does; with `answeringWhenCancelled`, it still waits and
    /// answers, as a transport that ignores cancellation would.
    public func holdNextRequest(answeringWhenCancelled: Bool = false) -> HeldPhotoRequest {
        let hold = HeldPhotoRequest(answersWhenCancelled: answeringWhenCancelled)
        holds.withLock { $0.append(hold) }
        return hold
    }

    /// The next answer in turn; the last one repeats.
    public func randomPhoto() async throws(PetPhotoError) -> PetPhoto {
        let hold = holds.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        let answer: Result<PetPhoto, PetPhotoError> = answers.withLock { state in
            state.requests += 1
            guard !state.list.isEmpty else { return .failure(.offline("no answers")) }
            let answer = state.list[min(state.next, state.list.count - 1)]
            state.next += 1
            return answer
        }
        try await hold?.hold()
        return try answer.get()
    }

    /// The bytes given for `photo`'s URL; an HTTP 404 when there are none.
    public func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data {
        guard let data = images[photo.url] else {
            throw .http(status: 404, message: "no image at \(photo.url)")
        }
        return data
    }
}
