import Data
import Domain
import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

/// Dog- and Cat-shaped answers, good and bad, from a real server on loopback.
@Suite("Pet photo repositories against a loopback server")
struct PetPhotoRepositoryTests {
    static func dogs(_ reply: HTTPTestReply, timeout: TimeInterval = 5) throws -> (
        HTTPTestServer, DogPhotoRepository
    ) {
        let server = try HTTPTestServer { _ in reply }
        let repository = DogPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: server.url("/api"), timeout: timeout)
        return (server, repository)
    }

    static func cats(_ reply: HTTPTestReply, apiKey: String? = nil) throws -> (
        HTTPTestServer, CatPhotoRepository
    ) {
        let server = try HTTPTestServer { _ in reply }
        let repository = CatPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: server.url("/v1"), apiKey: apiKey,
            timeout: 5)
        return (server, repository)
    }

    @Test("a dog: the URL, and the breed from its path, sub-breed first")
    func dog() async throws {
        let (server, dogs) = try Self.dogs(
            .json(
                #"{"message":"https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg","status":"success"}"#
            ))
        defer { server.stop() }
        let photo = try await dogs.randomPhoto()
        #expect(photo.url.absoluteString == "https://images.dog.ceo/breeds/hound-afghan/n02088094_1003.jpg")
        #expect(photo.breed == "afghan hound")
        #expect(photo.pet == .dog)
        #expect(photo.sizeDescription == nil)
        let plain = try #require(URL(string: "https://images.dog.ceo/breeds/pug/x.jpg"))
        #expect(DogPhotoRepository.breed(fromImageURL: plain) == "pug")
        let none = try #require(URL(string: "https://example.com/x.jpg"))
        #expect(DogPhotoRepository.breed(fromImageURL: none) == nil)
    }

    @Test("a photo's image is fetched from its own address; a 404 without a message names the address tried")
    func imageBytes() async throws {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9])
        let server = try HTTPTestServer { request in
            request.path == "/images/a.jpg"
                ? HTTPTestReply(status: 200, headers: [("Content-Type", "image/jpeg")], body: jpeg)
                : .status(404)
        }
        defer { server.stop() }
        let cats = CatPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: server.url("/v1"))
        let photo = PetPhoto(id: "a", pet: .cat, url: server.url("/images/a.jpg"))
        #expect(try await cats.imageData(for: photo) == jpeg)
        let missing = PetPhoto(id: "b", pet: .cat, url: server.url("/images/b.jpg"))
        await #expect(
            throws: PetPhotoError.http(
                status: 404, message: "no answer at \(server.url("/images/b.jpg").absoluteString)")
        ) {
            try await cats.imageData(for: missing)
        }
        #expect(PetImage(url: photo.url).validationType == .successCodes)
    }

    @Test("Dog CEO's 404 body gives its message")
    func dogNotFound() async throws {
        let (server, dogs) = try Self.dogs(
            .json(
                #"{"status":"error","message":"Breed not found (main breed does not exist)","code":404}"#,
                status: 404))
        defer { server.stop() }
        await #expect(
            throws: PetPhotoError.http(status: 404, message: "Breed not found (main breed does not exist)")
        ) {
            try await dogs.randomPhoto()
        }
    }

    @Test("the targets accept 2xx only; an error status with no JSON message is http(status:) alone")
    func successCodes() async throws {
        #expect(DogAPI(.randomImage).validationType == .successCodes)
        #expect(CatAPI(.searchImages).validationType == .successCodes)
        let (server, dogs) = try Self.dogs(.text("<html>Bad Gateway</html>", status: 502))
        defer { server.stop() }
        await #expect(throws: PetPhotoError.http(status: 502, message: nil)) {
            try await dogs.randomPhoto()
        }
        let (catServer, cats) = try Self.cats(.json(#"{"message":"slow down"}"#, status: 429))
        defer { catServer.stop() }
        await #expect(throws: PetPhotoError.http(status: 429, message: "slow down")) {
            try await cats.randomPhoto()
        }
    }

    @Test("malformed JSON, a wrong shape and a non-URL message are malformedResponse")
    func dogMalformed() async throws {
        for body in [
            #"{"message": "#, #"{"status":"success"}"#, #"{"message":"not a url","status":"success"}"#,
        ] {
            let (server, dogs) = try Self.dogs(.json(body))
            defer { server.stop() }
            await #expect {
                try await dogs.randomPhoto()
            } throws: { error in
                guard case PetPhotoError.malformedResponse = error else { return false }
                return true
            }
        }
    }

    @Test("a slow server times out; a refused port is offline")
    func timeoutAndOffline() async throws {
        let (server, dogs) = try Self.dogs(.json("{}").delayed(by: 3), timeout: 0.3)
        defer { server.stop() }
        await #expect(throws: PetPhotoError.timeout) { try await dogs.randomPhoto() }

        let stopped = try HTTPTestServer { _ in .status(200) }
        let address = stopped.url("/api")
        stopped.stop()
        let refused = DogPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: address, timeout: 2)
        await #expect {
            try await refused.randomPhoto()
        } throws: { error in
            guard case PetPhotoError.offline = error else { return false }
            return true
        }
    }

    @Test("a cat: id, URL, size and breed; the key is sent as x-api-key")
    func cat() async throws {
        let server = try HTTPTestServer { request in
            guard request.path == "/v1/images/search", request.header("x-api-key") == "secret" else {
                return .json(
                    #"{"message":"AUTHENTICATION_ERROR - no valid x-api-key in header","status":401}"#,
                    status: 401)
            }
            return .json(
                #"[{"id":"ebv","url":"https://cdn2.thecatapi.com/images/ebv.jpg","width":176,"height":540,"breeds":[{"name":"Abyssinian"}]}]"#
            )
        }
        defer { server.stop() }
        let keyed = CatPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: server.url("/v1"), apiKey: "secret")
        let photo = try await keyed.randomPhoto()
        #expect(photo.id == "ebv")
        #expect(photo.breed == "Abyssinian")
        #expect(photo.sizeDescription == "176×540")

        let keyless = CatPhotoRepository(
            provider: NetworkProvider(retryPolicy: .never), baseURL: server.url("/v1"))
        await #expect(
            throws: PetPhotoError.http(
                status: 401, message: "AUTHENTICATION_ERROR - no valid x-api-key in header")
        ) { try await keyless.randomPhoto() }
    }

    @Test("null sizes, no breeds and an empty array")
    func catEdges() async throws {
        let (server, cats) = try Self.cats(
            .json(
                #"[{"id":"x1","url":"https://cdn2.thecatapi.com/images/x1.png","width":null,"height":null}]"#)
        )
        defer { server.stop() }
        let photo = try await cats.randomPhoto()
        #expect(photo.breed == nil)
        #expect(photo.sizeDescription == nil)

        let (emptyServer, empty) = try Self.cats(.json("[]"))
        defer { emptyServer.stop() }
        await #expect(throws: PetPhotoError.malformedResponse("no image in the answer")) {
            try await empty.randomPhoto()
        }
    }

    @Test("the offline samples decode through the same code as live answers")
    func offlineSamples() async throws {
        let dogs = DogPhotoRepository(provider: NetworkProvider(stubBehavior: { _ in .immediate }))
        #expect(try await dogs.randomPhoto().breed == "afghan hound")
        let cats = CatPhotoRepository(provider: NetworkProvider(stubBehavior: { _ in .immediate }))
        #expect(try await cats.randomPhoto().breed == "Abyssinian")
    }
}
