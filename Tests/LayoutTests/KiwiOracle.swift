import Foundation
import Subprocess

/// Runs `kiwi_oracle.py` (kiwisolver, from PyPI) on a JSON request and returns its JSON answer,
/// awaiting the child process rather than blocking a thread of the cooperative pool.
enum KiwiOracle {
    struct Unavailable: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func run(_ request: Data) async throws -> Data {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("kiwi_oracle.py")
        let result = try await Subprocess.run(
            .name("python3"), arguments: [script.path], input: .data(request),
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
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
