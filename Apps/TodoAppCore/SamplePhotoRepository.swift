import BlockingWork
import Domain
import Foundation
import Synchronization

/// The photos `--offline` shows: pictures shipped with the app as package resources
/// (`Samples/`, whose `SOURCES.md` gives each one's source and licence), given in turn, one more
/// on each `refresh`. Nothing goes to the network.
struct SamplePhotoRepository: PetPhotoRepository {
    /// One shipped picture.
    struct Sample: Sendable {
        let file: String
        let breed: String
        let width: Int
        let height: Int
    }

    /// The samples of each animal, in the order `refresh` cycles through them.
    static func samples(of pet: Pet) -> [Sample] {
        switch pet {
        case .cat:
            [
                Sample(
                    file: "cat-chelsea.png", breed: "Chelsea, a tabby (sample photo, CC0)", width: 451,
                    height: 300),
                Sample(
                    file: "placeholder-cat.png", breed: "placeholder: no second licensed cat photo",
                    width: 72, height: 40),
            ]
        case .dog:
            [
                Sample(
                    file: "placeholder-dog.png", breed: "placeholder: no licensed dog photo ships", width: 72,
                    height: 40)
            ]
        }
    }

    let pet: Pet
    private let next = Counter()

    init(pet: Pet) {
        self.pet = pet
    }

    /// The next sample, in turn.
    func randomPhoto() async throws(PetPhotoError) -> PetPhoto {
        let samples = Self.samples(of: pet)
        let sample = samples[next.take() % samples.count]
        guard let url = Bundle.module.url(forResource: sample.file, withExtension: nil) else {
            throw .offline("the sample photo \(sample.file) is missing from the app's resources")
        }
        return PetPhoto(
            id: "sample-\(sample.file)", pet: pet, url: url, breed: sample.breed, width: sample.width,
            height: sample.height)
    }

    /// The file's bytes, read on a thread of its own: a read blocks its thread, and the
    /// cooperative pool has one thread a core.
    func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data {
        let url = photo.url
        do {
            return try await DedicatedThread.run(named: "TodoAppCore.SamplePhotoRepository") {
                try Data(contentsOf: url)
            }
        } catch {
            throw .offline(
                "cannot read the sample photo \(photo.url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    /// How many photos were given; shared by copies of the repository.
    private final class Counter: Sendable {
        private let count = Mutex(0)

        func take() -> Int {
            count.withLock { value in
                defer { value += 1 }
                return value
            }
        }
    }
}
