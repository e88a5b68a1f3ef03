import ArgumentParser
import Foundation
import HTTPTestServer
import NetworkProvider

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bench network`: requests per second against a loopback server, for raw URLSession, the
/// provider over each transport, and the curl command line, all in the same run.
struct NetworkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract:
            "Requests/s, sequential and 16-way concurrent: URLSession, the provider over both transports, curl(1)."
    )

    @Option(help: "Requests per peer and repetition.")
    var requests = 4_000

    @Option(help: "Concurrent requests in the concurrent measurements.")
    var concurrency = 16

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    struct Ping: TargetType {
        var baseURL: URL
        var path: String { "ping" }
        var validationType: ValidationType { .successCodes }
    }

    func run() async throws {
        // Off the main actor, so no peer pays for hops back to it.
        try await Task.detached { try await self.measure() }.value
    }

    private func measure() async throws {
        #if DEBUG
            print(
                "warning: this is a debug build; run `swift run -c release bench network` for real figures.")
        #endif
        let payload = Data(
            #"{"message":"https://images.dog.ceo/breeds/shiba/shiba-1.jpg","status":"success"}"#.utf8)
        let server = try HTTPTestServer { _ in
            HTTPTestReply(status: 200, headers: [("Content-Type", "application/json")], body: payload)
        }
        defer { server.stop() }
        let url = server.url("/api/ping")
        let target = Ping(baseURL: server.url("/api"))
        // A plain session, as a program that uses URLSession directly has.
        let session = URLSession(configuration: .default)
        let overURLSession = NetworkProvider<Ping>(transport: URLSessionTransport.shared, retryPolicy: .never)
        let overCurl = NetworkProvider<Ping>(transport: CurlTransport.shared, retryPolicy: .never)
        let rawCurl = CurlTransport.shared
        let request = URLRequest(url: url)
        let count = requests
        let width = concurrency

        print("Network benchmark: \(count) requests per run against 127.0.0.1, median of \(repetitions)\n")
        let peers: [(String, @Sendable () async throws -> Void)] = [
            ("raw URLSession", { _ = try await session.data(for: request) }),
            ("raw URLSessionTransport", { _ = try await URLSessionTransport.shared.send(request) }),
            ("provider over URLSessionTransport", { _ = try await overURLSession.request(target) }),
            ("raw CurlTransport", { _ = try await rawCurl.send(request) }),
            ("provider over CurlTransport", { _ = try await overCurl.request(target) }),
        ]

        // Peers take turns in small batches, and each peer's time is the sum over its batches:
        // this machine's speed drifts by ±15% over seconds, far more than the differences
        // measured here, and interleaving cancels the drift out.
        for (_, call) in peers { for _ in 0..<20 { try await call() } }  // warm up connections
        let sequentialBatch = 50
        let concurrentBatch = width * 25
        var samples: [String: (sequential: [Double], concurrent: [Double])] = [:]
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            var sequential: [String: Duration] = [:]
            var concurrent: [String: Duration] = [:]
            for _ in 0..<max(1, count / sequentialBatch) {
                for (name, call) in peers {
                    let start = clock.now
                    for _ in 0..<sequentialBatch { try await call() }
                    sequential[name, default: .zero] += clock.now - start
                }
            }
            for _ in 0..<max(1, count / concurrentBatch) {
                for (name, call) in peers {
                    let start = clock.now
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<width {
                            group.addTask { for _ in 0..<(concurrentBatch / width) { try await call() } }
                        }
                        try await group.waitForAll()
                    }
                    concurrent[name, default: .zero] += clock.now - start
                }
            }
            let sequentialCount = Double(max(1, count / sequentialBatch) * sequentialBatch)
            let concurrentCount = Double(max(1, count / concurrentBatch) * concurrentBatch)
            for (name, _) in peers {
                samples[name, default: ([], [])].sequential.append(
                    sequentialCount / Measurement.seconds(sequential[name, default: .zero]))
                samples[name, default: ([], [])].concurrent.append(
                    concurrentCount / Measurement.seconds(concurrent[name, default: .zero]))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var results = samples.mapValues {
            (sequential: median($0.sequential), concurrent: median($0.concurrent))
        }
        let curlCLI = try measureCurlCommandLine(url: url, count: count, width: width)
        results["curl(1), one process, keep-alive"] = curlCLI

        print("                                      sequential req/s   \(width)-way req/s")
        for name in peers.map(\.0) + ["curl(1), one process, keep-alive"] {
            guard let result = results[name] else { continue }
            let label = name.padding(toLength: 38, withPad: " ", startingAt: 0)
            let sequential = Measurement.grouped(result.sequential).padding(
                toLength: 19, withPad: " ", startingAt: 0)
            print("\(label)\(sequential)\(Measurement.grouped(result.concurrent))")
        }
        func ratio(_ a: String, _ b: String) -> String {
            guard let x = results[a], let y = results[b] else { return "?" }
            return
                "\(Measurement.ratio(x.sequential / y.sequential)) sequential, \(Measurement.ratio(x.concurrent / y.concurrent)) \(width)-way"
        }
        print("\nRatios (throughput):")
        print(
            "  provider/URLSessionTransport ÷ raw URLSessionTransport: \(ratio("provider over URLSessionTransport", "raw URLSessionTransport"))"
        )
        print(
            "  raw URLSessionTransport ÷ raw URLSession:        \(ratio("raw URLSessionTransport", "raw URLSession"))"
        )
        print(
            "  provider/CurlTransport ÷ raw CurlTransport:     \(ratio("provider over CurlTransport", "raw CurlTransport"))"
        )
        print(
            "  provider/CurlTransport ÷ raw URLSession:        \(ratio("provider over CurlTransport", "raw URLSession"))"
        )
        print(
            "  provider/CurlTransport ÷ curl(1):               \(ratio("provider over CurlTransport", "curl(1), one process, keep-alive"))"
        )
    }

    /// curl(1) fetching the URL `count` times in one process: sequentially, then `--parallel`.
    private func measureCurlCommandLine(url: URL, count: Int, width: Int) throws -> (Double, Double) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-curl-\(UUID().uuidString).cfg")
        defer { try? FileManager.default.removeItem(at: config) }
        let lines = (0..<count).map { _ in "url = \"\(url.absoluteString)\"\noutput = \"/dev/null\"" }
        try Data(lines.joined(separator: "\n").utf8).write(to: config)
        func run(_ extra: [String]) throws -> Double {
            try Measurement.median(repetitions: repetitions) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments =
                    ["curl", "--silent", "--no-progress-meter", "--fail", "-K", config.path] + extra
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else { throw ExitCode(process.terminationStatus) }
            }
        }
        let sequential = try run([])
        let parallel = try run(["--parallel", "--parallel-max", String(width)])
        return (Double(count) / sequential, Double(count) / parallel)
    }
}
