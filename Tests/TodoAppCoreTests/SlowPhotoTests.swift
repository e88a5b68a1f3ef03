import Foundation
import HTTPTestServer
import HeadlessUITesting
import Testing

/// The Dog flavor on a pseudo-terminal against a loopback server that takes seconds to answer
/// the photo request: what the user types meanwhile is not held behind it.
@Suite("A slow photo request holds up nothing but the photo")
struct SlowPhotoTests {
    /// A loopback server whose photo request is answered `delay` seconds late.
    static func server(answeringThePhotoAfter delay: TimeInterval) throws -> HTTPTestServer {
        try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random":
                .json(TodoAppEndToEndTests.dogAnswer(host: request.header("Host"))).delayed(by: delay)
            case "/breeds/terrier-norfolk/n02094114_1505.jpg": TodoAppEndToEndTests.image()
            default: .status(404)
            }
        }
    }

    /// A loopback server that answers the photo request only once the test signals `release`
    /// (or after two minutes): the request is on its way for as long as the test needs, however
    /// slowly a loaded machine draws, where a fixed delay (8 s) once ran out before the name
    /// showed. The wait blocks the server's thread for that connection, never the test's.
    static func server(holdingThePhotoUntil release: DispatchSemaphore) throws -> HTTPTestServer {
        try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random":
                _ = release.wait(timeout: .now() + 120)
                return .json(TodoAppEndToEndTests.dogAnswer(host: request.header("Host")))
            case "/breeds/terrier-norfolk/n02094114_1505.jpg": return TodoAppEndToEndTests.image()
            default: return .status(404)
            }
        }
    }

    /// TodoAppDog on a pseudo-terminal against `server`, its request timeout `timeout` seconds,
    /// once it shows its first screen.
    static func launch(against server: HTTPTestServer, home: TemporaryHome, timeout: Int) async throws
        -> PseudoTerminalSession
    {
        let app = try AppProcess("TodoAppDog", home: home.url)
        var environment = ProcessInfo.processInfo.environment
        environment["TODOAPP_HOME"] = home.url.path
        environment["TODOAPP_API_BASE_URL"] = server.url("/api").absoluteString
        environment["TODOAPP_TIMEOUT"] = "\(timeout)"
        environment["XDG_CONFIG_HOME"] = nil
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        let session = try PseudoTerminalSession([app.executable.path], environment: environment)
        try await session.waitFor { $0.text.contains("Nothing here") && $0.text.contains("? Help") }
        return session
    }

    @Test("`name Ada` typed while the photo is on its way shows Ada at once; the photo comes later")
    func nameWhileThePhotoHangs() async throws {
        let photoReleased = DispatchSemaphore(value: 0)
        let server = try Self.server(holdingThePhotoUntil: photoReleased)
        defer {
            photoReleased.signal()
            server.stop()
        }
        let home = try TemporaryHome()
        let session = try await Self.launch(against: server, home: home, timeout: 30)
        defer { session.close() }
        session.send(":tab profile\r")
        try await session.waitFor { $0.text.contains("Your dog is on the way…") }
        session.send(":name Ada\r")
        let named = try await session.waitFor { $0.text.contains("Name saved.") }
        #expect(named.text.contains("Ada"), "\(named.text)")
        #expect(
            named.text.contains("Your dog is on the way…"),
            "the name waited for the photo, which the server still holds: \(named.text)")
        photoReleased.signal()
        let photo = try await session.waitFor { $0.text.contains("Your dog: norfolk terrier") }
        #expect(photo.text.contains("Ada"))
        session.send("\u{03}")  // Ctrl-C
        #expect(try await session.exitStatus() == 0)
    }

    @Test("quitting while the photo is on its way ends at once: the request is given up, not awaited")
    func quitWhileThePhotoHangs() async throws {
        // Far past the terminal waits' 30 s: an app that waited for the answer would still be
        // running when `exitStatus()` gives up.
        let server = try Self.server(answeringThePhotoAfter: 120)
        defer { server.stop() }
        let home = try TemporaryHome()
        let session = try await Self.launch(against: server, home: home, timeout: 180)
        defer { session.close() }
        session.send(":tab profile\r")
        try await session.waitFor { $0.text.contains("Your dog is on the way…") }
        session.send(":quit\r")
        #expect(try await session.exitStatus() == 0)
        #expect(!session.terminal.text.contains("saving the last changes"), "\(session.terminal.text)")
    }
}
