import Domain
import Foundation
import Testing

@Suite("PetPhoto and its errors")
struct PetPhotoTests {
    @Test("the size reads width×height only when both are known")
    func size() throws {
        let url = try #require(URL(string: "https://cdn2.thecatapi.com/images/ebv.jpg"))
        #expect(
            PetPhoto(id: "ebv", pet: .cat, url: url, width: 176, height: 540).sizeDescription == "176×540")
        #expect(PetPhoto(id: "ebv", pet: .cat, url: url, width: 176).sizeDescription == nil)
    }

    @Test("each error reads as a status line")
    func statusLines() {
        #expect(
            "\(PetPhotoError.http(status: 404, message: "Breed not found"))"
                == "The API answered 404: Breed not found")
        #expect("\(PetPhotoError.timeout)" == "The photo request timed out.")
        #expect(
            "\(TodoError.notSaved(.unwritable(reason: "disk full")))"
                == "Not saved: could not write (disk full)")
    }
}
