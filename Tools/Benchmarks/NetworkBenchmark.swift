import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPTestServer
import NIOCore
import NetworkProvider
import NetworkProviderAsyncHTTPClient
import RibcagePackage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bench network`: requests per second and latency percentiles against a loopback server, for
/// raw URLSession, raw AsyncHTTPClient, each transport raw and under the provider, and the curl
/// command line, all in the same run.
struct NetworkBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract:
            "Requests/s and p50/p99 latency, sequential and 16-way: URLSession, AsyncHTTPClient, the provider over each transport, curl(1)."
    )

    @Option(help: "Requests per peer and repetition.")
    var requests = 4_000

    @Option(help: "Concurrent requests in the concurrent measurements.")
    var concurrency = 16

    @Option(help: "Repetitions; the median throughput is reported, latencies over all of them.")
    var repetitions = 3

    @Option(help: "Measure only the peers whose names contain this text (for profiling one of them).")
    var only: String?

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
        let peers = try Peers(url: url, target: Ping(baseURL: server.url("/api")))

        print(
            "Network benchmark: \(requests) requests per peer and run against 127.0.0.1, \(repetitions) runs\n"
        )
        let measured = peers.all.filter { name, _ in only.map { name.contains($0) } ?? true }
        let results = try await NetworkMeasurement(
            peers: measured, requests: requests, concurrency: concurrency, repetitions: repetitions
        ).run()
        try await peers.shutdown()
        let curlCLI =
            only == nil ? try await measureCurlCommandLine(url: url) : (sequential: 0, concurrent: 0)

        let header =
            "peer".padding(toLength: 36, withPad: " ", startingAt: 0)
            + "sequential req/s   p50 µs   p99 µs   \(concurrency)-way req/s   p50 µs   p99 µs"
        print(header)
        for (name, _) in peers.all {
            guard let result = results[name] else { continue }
            print(row(name, result))
        }
        print(
            "curl(1), one process, keep-alive".padding(toLength: 36, withPad: " ", startingAt: 0)
                + Measurement.grouped(curlCLI.sequential).leftPadded(16) + "        —        —"
                + Measurement.grouped(curlCLI.concurrent).leftPadded(16) + "        —        —")

        func ratio(_ a: String, _ b: String, goal: String) -> String {
            guard let x = results[a], let y = results[b] else { return "?" }
            let sequential = Measurement.ratio(x.sequential.throughput / y.sequential.throughput)
            let concurrent = Measurement.ratio(x.concurrent.throughput / y.concurrent.throughput)
            return "\(sequential) sequential, \(concurrent) \(concurrency)-way  (goal \(goal))"
        }
        print("\nRatios (throughput):")
        let lines = [
            (
                "provider/CurlTransport ÷ raw CurlTransport",
                ratio(Peers.providerCurl, Peers.rawCurl, goal: "≥ 0.95×")
            ),
            (
                "provider/CurlTransport ÷ raw AsyncHTTPClient",
                ratio(Peers.providerCurl, Peers.rawAHC, goal: "≥ 1.0×")
            ),
            (
                "provider/CurlTransport ÷ the same over 1 loop",
                ratio(Peers.providerCurl, Peers.providerCurlOneLoop, goal: "—")
            ),
            (
                "provider/CurlTransport ÷ raw URLSession",
                ratio(Peers.providerCurl, Peers.rawURLSession, goal: "≥ 2×")
            ),
            (
                "provider/URLSessionTransport ÷ raw URLSessionTransport",
                ratio(Peers.providerURLSession, Peers.rawURLSessionTransport, goal: "≥ 0.95×")
            ),
            (
                "provider/AsyncHTTPClientTransport ÷ raw AsyncHTTPClientTransport",
                ratio(Peers.providerAHC, Peers.rawAHCTransport, goal: "≥ 0.95×")
            ),
            (
                "raw AsyncHTTPClientTransport ÷ raw AsyncHTTPClient",
                ratio(Peers.rawAHCTransport, Peers.rawAHC, goal: "—")
            ),
        ]
        for (label, value) in lines {
            print("  " + label.padding(toLength: 66, withPad: " ", startingAt: 0) + value)
        }
    }

    private func row(_ name: String, _ result: NetworkMeasurement.Result) -> String {
        func micros(_ nanoseconds: UInt64) -> String { Measurement.grouped(Double(nanoseconds) / 1_000) }
        return name.padding(toLength: 36, withPad: " ", startingAt: 0)
            + Measurement.grouped(result.sequential.throughput).leftPadded(16)
            + micros(result.sequential.latency.valueAtPercentile(50)).leftPadded(9)
            + micros(result.sequential.latency.valueAtPercentile(99)).leftPadded(9)
            + Measurement.grouped(result.concurrent.throughput).leftPadded(16)
            + micros(result.concurrent.latency.valueAtPercentile(50)).leftPadded(9)
            + micros(result.concurrent.latency.valueAtPercentile(99)).leftPadded(9)
    }

    /// curl(1) fetching the URL `requests` times in one process: sequentially, then `--parallel`.
    private func measureCurlCommandLine(url: URL) async throws -> (sequential: Double, concurrent: Double) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-curl-\(UUID().uuidString).cfg")
        defer { try? FileManager.default.removeItem(at: config) }
        let lines = (0..<requests).map { _ in "url = \"\(url.absoluteString)\"\noutput = \"/dev/null\"" }
        try Data(lines.joined(separator: "\n").utf8).write(to: config)
        func run(_ extra: [String]) async throws -> Double {
            try await Measurement.median(repetitions: repetitions) {
                let result = try await Shell.run(
                    "curl", ["--silent", "--no-progress-meter", "--fail", "-K", config.path] + extra)
                guard result.succeeded else { throw ExitCode(result.status) }
            }
        }
        let sequential = try await run([])
        let parallel = try await run(["--parallel", "--parallel-max", String(concurrency)])
        return (Double(requests) / sequential, Double(requests) / parallel)
    }
}

/// The clients measured, each with one request to send.
private struct Peers {
    static let rawURLSession = "raw URLSession"
    static let rawURLSessionTransport = "raw URLSessionTransport"
    static let providerURLSession = "provider over URLSessionTransport"
    static let rawAHC = "raw AsyncHTTPClient"
    static let rawAHCTransport = "raw AsyncHTTPClientTransport"
    static let providerAHC = "provider over AsyncHTTPClientTransport"
    static let rawCurl = "raw CurlTransport"
    static let providerCurl = "provider over CurlTransport"
    static let providerCurlOneLoop = "provider over CurlTransport, 1 loop"

    let all: [(String, @Sendable () async throws -> Void)]
    private let client: HTTPClient

    init(url: URL, target: NetworkBenchmark.Ping) throws {
        // A plain session and a plain client, as a program that uses them directly has; the
        // client gets as many connections per host as CurlTransport.
        let session = URLSession(configuration: .default)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.client = client
        let request = URLRequest(url: url)
        let clientRequest = HTTPClientRequest(url: url.absoluteString)
        let overURLSession = NetworkProvider<NetworkBenchmark.Ping>(
            transport: URLSessionTransport.shared, retryPolicy: .never)
        let overAHC = NetworkProvider<NetworkBenchmark.Ping>(
            transport: AsyncHTTPClientTransport.shared, retryPolicy: .never)
        let overCurl = NetworkProvider<NetworkBenchmark.Ping>(
            transport: CurlTransport.shared, retryPolicy: .never)
        // One multi handle instead of one per core: what the loops per core are weighed against.
        let overCurlOneLoop = NetworkProvider<NetworkBenchmark.Ping>(
            transport: CurlTransport(loopCount: 1), retryPolicy: .never)
        all = [
            (Self.rawURLSession, { @Sendable in _ = try await session.data(for: request) }),
            (
                Self.rawURLSessionTransport,
                { @Sendable in _ = try await URLSessionTransport.shared.send(request) }
            ),
            (Self.providerURLSession, { @Sendable in _ = try await overURLSession.request(target) }),
            (
                Self.rawAHC,
                { @Sendable in
                    let response = try await client.execute(clientRequest, timeout: .seconds(60))
                    _ = try await response.body.collect(upTo: 1 << 20)
                }
            ),
            (
                Self.rawAHCTransport,
                { @Sendable in _ = try await AsyncHTTPClientTransport.shared.send(request) }
            ),
            (Self.providerAHC, { @Sendable in _ = try await overAHC.request(target) }),
            (Self.rawCurl, { @Sendable in _ = try await CurlTransport.shared.send(request) }),
            (Self.providerCurl, { @Sendable in _ = try await overCurl.request(target) }),
            (Self.providerCurlOneLoop, { @Sendable in _ = try await overCurlOneLoop.request(target) }),
        ]
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
