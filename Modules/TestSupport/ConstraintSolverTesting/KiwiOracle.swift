import Foundation
import Subprocess

/// Runs `kiwi_oracle.py` (kiwisolver, from PyPI) on a JSON request and returns its JSON answer,
/// awaiting the child process rather than blocking a thread of the cooperative pool.
///
/// The solver's tests compare its systems with kiwisolver's, and Layout's tests the systems of
/// whole screens; one script answers both, so it lives here rather than in either test folder.
package enum KiwiOracle {
    /// kiwisolver could not be run (not installed, or the script failed).
    package struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong, with the script's standard error.
        package var message: String
        package var description: String { message }
    }

    /// The script's JSON answer to `request` (`{"systems": …}` or `{"screens": …}`).
    package static func run(_ request: Data) async throws -> Data {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("kiwi_oracle.py")
        // The request goes in a file, not down the script's standard input: a python3 that
        // stops early (kiwisolver missing) closed that pipe, and writing on into it killed the
        // whole test process (SIGPIPE; swift-subprocess 1.0.2 then traps on the writer it could
        // not close) instead of failing this test with the script's words.
        let requestFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-kiwi-request-\(UUID().uuidString).json")
        try request.write(to: requestFile)
        // A request file left behind is a few kilobytes in the temporary folder, which
        // Tools/test lists at the end; nothing a test's verdict should hang on.
        defer { try? FileManager.default.removeItem(at: requestFile) }
        let result = try await Subprocess.run(
            .name("python3"), arguments: [script.path, requestFile.path],
            output: .data(limit: 1 << 30), error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess else {
            throw Unavailable(
                message:
                    "kiwi_oracle.py failed (is kiwisolver installed? `pip install kiwisolver`): \(result.standardError)"
            )
        }
        return result.standardOutput
    }
}

/// A small seeded generator, so a failing case can be made again from its seed.
package struct SplitMix64: RandomNumberGenerator {
    /// The generator's whole state: the seed, then advanced by each number.
    package var state: UInt64

    /// A generator that starts from `state`.
    package init(state: UInt64) {
        self.state = state
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
