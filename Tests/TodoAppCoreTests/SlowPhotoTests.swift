import Foundation
import HTTPTestServer
import HeadlessUITesting
import Testing

/// The Dog flavor on a pseudo-terminal against a loopback server that takes seconds to answer
/// the photo request: what the user types meanwhile is not held behind it.
@Suite("A slow photo request holds up nothing but the photo")
struct SlowPhotoTests {
    /// How long the server sits on the photo request: far longer than a typed command takes to
    /// draw, and under the app's timeout (set to 30 s below), so the request is still on its
    /// way whenever the name shows.
    static let photoDelay: TimeInterval = 8

    @Test("`name Ada` typed while the photo is on its way shows Ada at once; the photo comes later")
    func nameWhileThePhotoHangs() async throws {
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random":
                .json(TodoAppEndToEndTests.dogAnswer(host: request.header("Host"))).delayed(
                    by: Self.photoDelay)
            case "/breeds/terrier-norfolk/n02094114_1505.jpg": TodoAppEndToEndTests.image()
            default: .status(404)
            }
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        var environment = ProcessInfo.processInfo.environment
        environment["TODOAPP_HOME"] = home.url.path
        environment["TODOAPP_API_BASE_URL"] = server.url("/api").absoluteString
        environment["TODOAPP_TIMEOUT"] = "30"
        environment["XDG_CONFIG_HOME"] = nil
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        let session = try PseudoTerminalSession([app.executable.path], environment: environment)
        defer { session.close() }
        try await session.waitFor { $0.text.contains("Nothing here") && $0.text.contains("? Help") }
        session.send(":tab profile\r")
        try await session.waitFor { $0.text.contains("Your dog is on the way…") }
        session.send(":name Ada\r")
        let named = try await session.waitFor { $0.text.contains("Name saved.") }
        #expect(named.text.contains("Ada"), "\(named.text)")
        #expect(
            named.text.contains("Your dog is on the way…"),
            "the name waited for the photo, which the server held \(Self.photoDelay) s: \(named.text)")
        let photo = try await session.waitFor { $0.text.contains("Your dog: norfolk terrier") }
        #expect(photo.text.contains("Ada"))
        session.send("\u{03}")  // Ctrl-C
        #expect(try await session.exitStatus() == 0)
    }
}
