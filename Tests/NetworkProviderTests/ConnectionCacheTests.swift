import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

/// The connections a transport keeps open between bursts of requests, counted as descriptors in
/// `network-probe`, a child process: other suites' sockets in this process would blur the count.
@Suite("Connections kept between bursts")
struct ConnectionCacheTests {
    /// A transport in `network-probe`'s terms, and the hosts its requests are spread over.
    struct Case: Sendable, CustomTestStringConvertible {
        var transport: String
        var hosts: Int
        var testDescription: String { "\(transport), \(hosts) host\(hosts == 1 ? "" : "s")" }
    }

    @Test(
        "A long run of bursts leaves no more connections open than the transport's bound",
        arguments: [
            Case(transport: "curl", hosts: 1), Case(transport: "curl", hosts: 3),
            Case(transport: "curl:2", hosts: 3),
            Case(transport: "urlsession", hosts: 1), Case(transport: "urlsession", hosts: 3),
        ])
    func burstsStayUnderTheBound(_ test: Case) async throws {
        let servers = try (0..<test.hosts).map { _ in try HTTPTestServer { _ in HTTPTestReply.text("ok") } }
        defer { for server in servers { server.stop() } }
        let bursts = 8
        let lines = try await runNetworkProbe(
            ["bursts", test.transport, "\(bursts)x200"] + servers.map { $0.url("/api/ok").absoluteString })
        let head = try #require(lines.first, "no output")
        let warm = try #require(head["warm"].flatMap { Int($0) }, "\(head)")
        let loops = try #require(head["loops"].flatMap { Int($0) }, "\(head)")
        let kept = try #require(head["kept"].flatMap { Int($0) }, "\(head)")
        #expect(head["first"] == "status 200", "\(head)")
        // CurlTransport bounds each loop's connections, whatever the hosts; URLSession bounds
        // only each host's (httpMaximumConnectionsPerHost), so its bound grows with the hosts.
        let bound = test.transport == "urlsession" ? test.hosts * kept : loops * kept
        // `warm` holds the first request's connection and what the transport keeps for good (the
        // loops' epoll, eventfd, timerfd and curl's socket pair); the slack is for descriptors
        // the runtime opens on its own, and a socket URLSession closes a moment late.
        let slack = 4
        #expect(lines.count == 1 + bursts, "\(lines)")
        for line in lines.dropFirst() {
            let descriptors = try #require(line["descriptors"].flatMap { Int($0) }, "\(line)")
            #expect(line["failures"] == "none", "\(line)")
            #expect(
                descriptors <= warm + bound + slack,
                "after burst \(line["burst"] ?? "?"): \(descriptors) descriptors, \(warm) after the first request, bound \(bound)"
            )
        }
    }
}
