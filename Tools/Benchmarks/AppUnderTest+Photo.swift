import ArgumentParser
import Dispatch
import Foundation
import HTTPTestServer
import Synchronization

extension AppUnderTest {
    /// The seconds from a photo's bytes handed to the app by a loopback Dog API to the frame
    /// that shows it drawn, read from the terminal: the app starts online against the server,
    /// the Profile tab is shown (Tab, unless the app kept it from the last run) while the image
    /// waits, then the server answers with `image` and the clock runs until half blocks appear
    /// on the screen.
    func photoOnTerminal(image: Data) async throws -> Double {
        let gate = DispatchSemaphore(value: 0)
        let handedOver = Moment()
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random":
                let host = request.header("Host") ?? "127.0.0.1"
                return .json(#"{"message":"http://\#(host)/breeds/bench/photo.png","status":"success"}"#)
            case "/breeds/bench/photo.png":
                // The connection's own thread waits until the Profile tab is on screen.
                gate.wait()
                handedOver.mark()
                return HTTPTestReply(status: 200, headers: [("Content-Type", "image/png")], body: image)
            default:
                return .status(404)
            }
        }
        defer {
            gate.signal()
            server.stop()
        }
        return try await onTerminal(api: server.url("/")) { terminal, _ in
            var step = "the first frame"
            do {
                // The app opens on the tab chosen last: Todo the first time, Profile after.
                _ = try await terminal.moment { screen in
                    !screen.modes.contains(2026)
                        && screen.text.split(separator: "\n").last?.contains("? Help") == true
                }
                if !terminal.screen.text.contains("Favourite") { terminal.type("\t") }
                step = "the Profile tab"
                _ = try await terminal.moment { screen in
                    !screen.modes.contains(2026) && screen.text.contains("Favourite")
                }
                gate.signal()
                step = "the photo"
                let drawn = try await terminal.moment { screen in
                    !screen.modes.contains(2026) && (screen.text.contains("▀") || screen.text.contains("▄"))
                }
                guard let start = handedOver.instant else {
                    throw ValidationError("the photo was drawn before the server handed it over")
                }
                return Measurement.seconds(drawn - start)
            } catch {
                throw ValidationError(
                    """
                    waiting for \(step): \(server.requestCount) requests, \(server.bytesSent) bytes sent, \
                    photo handed over: \(handedOver.instant != nil), synchronized update open: \
                    \(terminal.screen.modes.contains(2026)); \(error)
                    """)
            }
        }
    }
}

/// A moment one thread notes and another reads.
private final class Moment: Sendable {
    private let noted = Mutex<ContinuousClock.Instant?>(nil)

    func mark() { noted.withLock { $0 = ContinuousClock.now } }

    var instant: ContinuousClock.Instant? { noted.withLock { $0 } }
}
