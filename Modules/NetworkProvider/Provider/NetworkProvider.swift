import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a ``TargetType``'s requests: the Moya `MoyaProvider` of Ribcage, with async/await.
///
/// ```swift
/// let provider = NetworkProvider<DogAPI>(plugins: [NetworkLoggerPlugin()])
/// let image = try await provider.request(.randomImage).map(DogImage.self)
/// ```
///
/// Each request: build the `URLRequest` → plugins `prepare` → for each attempt: `willSend` →
/// (stub, or) transport, following redirects → `didReceive` → retry policy → finally
/// validation and `process`. Cancelling the calling task cancels the request in flight.
public struct NetworkProvider<Target: TargetType>: Sendable {
    /// Sends the requests.
    public let transport: any Transport
    /// Applied in order to every request.
    public let plugins: [any PluginType]
    /// When to retry.
    public let retryPolicy: RetryPolicy
    private let stubBehavior: @Sendable (Target) -> StubBehavior
    private let sampleResponse: @Sendable (Target) -> SampleResponse

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - transport: ``CurlTransport/shared`` by default on Linux (see Project.swift.md for why).
    ///   - plugins: Applied in order.
    ///   - retryPolicy: Alamofire's defaults unless given.
    ///   - stubBehavior: Per target; never stubbed by default.
    ///   - sampleResponse: The stubbed answer; by default status 200 with the target's
    ///     `sampleData`.
    public init(
        transport: any Transport = defaultTransport,
        plugins: [any PluginType] = [],
        retryPolicy: RetryPolicy = .default,
        stubBehavior: @escaping @Sendable (Target) -> StubBehavior = { _ in .never },
        sampleResponse: @escaping @Sendable (Target) -> SampleResponse = {
            .networkResponse(200, $0.sampleData)
        }
    ) {
        self.transport = transport
        self.plugins = plugins
        self.retryPolicy = retryPolicy
        self.stubBehavior = stubBehavior
        self.sampleResponse = sampleResponse
    }

    /// The most redirects followed in a row before a request fails with
    /// ``TransportFailure/Kind/tooManyRedirects``.
    public static var maximumRedirects: Int { 10 }

    /// Sends `target`'s request and returns the response.
    ///
    /// Redirects are followed the same way on every transport (RFC 9110 §15.4): 307 and 308
    /// repeat the method and body, 303 (and 301 or 302 after a `POST`) becomes a `GET` without
    /// a body, and a redirect to another origin drops `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, `x-api-key` and the target's ``TargetType/sensitiveHeaders``. If the calling
    /// task is cancelled before the response is handed back, the request fails with
    /// ``NetworkError/cancelled``, whatever else happened.
    ///
    /// - Throws: ``NetworkError``; a validation failure is ``NetworkError/statusCode(_:)``.
    public func request(_ target: Target) async throws(NetworkError) -> Response {
        // Closures rather than key paths here and below: a key path in this generic code is
        // instantiated at run time on every call, which cost more than the rest of the provider.
        var result = await perform(target) { request in
            await send(request, for: target).map { ProviderAnswer(response: $0, body: nil) }
        }
        .map { $0.response }
        .flatMap { response in
            target.validationType.accepts(response.statusCode)
                ? .success(response) : .failure(.statusCode(response))
        }
        if Task.isCancelled { result = .failure(.cancelled) }
        let processed = plugins.reduce(result) { $1.process($0, target: target) }
        return try processed.get()
    }

    /// Sends `target`'s request and returns as soon as the response's head has arrived and
    /// passed validation; iterate the result for the body's chunks as they arrive.
    ///
    /// ```swift
    /// let photo = try await provider.bytes(.image(id))
    /// for try await chunk in photo { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// The transport's size limit, the target's timeout (a total deadline, to the body's last
    /// byte) and cancellation (of this call, or of the task reading the body) apply as they do to
    /// ``request(_:)``. Retries happen before the body starts, never in the middle of it.
    /// Plugins see the request as any other, with an empty `data` in the response `didReceive`
    /// gets; `process` is not applied, as there is no whole response to give it.
    ///
    /// - Throws: ``NetworkError``; a validation failure is ``NetworkError/statusCode(_:)``, with
    ///   the error's body read into its response.
    public func bytes(_ target: Target) async throws(NetworkError) -> StreamedResponse {
        let result = await perform(target) { request in await stream(request, for: target) }
        if Task.isCancelled { throw .cancelled }
        let answer = try result.get()
        let head = answer.response
        let body = answer.body ?? ResponseBody(Data())
        guard target.validationType.accepts(head.statusCode) else {
            var response = head
            do {
                response.data = try await body.collect(upTo: transport.maximumResponseSize)
            } catch {
                // The status is the error the caller gets; a body cut short stays empty.
            }
            throw .statusCode(response)
        }
        return StreamedResponse(head: head, body: body)
    }

    /// Builds the request, lets the plugins prepare it, and sends it until the retry policy is
    /// satisfied; `exchange` sends one attempt.
    private func perform(
        _ target: Target, exchange: (URLRequest) async -> Result<ProviderAnswer, NetworkError>
    ) async -> Result<ProviderAnswer, NetworkError> {
        var request: URLRequest
        do {
            request = try target.asRequest()
        } catch let error as NetworkError {
            return .failure(error)
        } catch {
            return .failure(.encoding(underlying: error))
        }
        request = plugins.reduce(request) { $1.prepare($0, target: target) }

        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.cancelled) }
            for plugin in plugins { plugin.willSend(request, target: target) }
            let outcome = await exchange(request)
            let response = outcome.map { $0.response }
            for plugin in plugins { plugin.didReceive(response, target: target) }

            if let delay = retryPolicy.delay(afterAttempt: attempt, method: target.method, outcome: response)
            {
                do {
                    try await Task.sleep(for: .seconds(delay))
                } catch {
                    return .failure(.cancelled)
                }
                continue
            }
            return outcome
        }
    }

    private func send(_ request: URLRequest, for target: Target) async -> Result<Response, NetworkError> {
        switch stubBehavior(target) {
        case .never:
            do {
                let (raw, last) = try await followingRedirects(from: request, of: target) {
                    (hop) throws(NetworkError) in
                    try await transport.send(hop)
                } head: {
                    ($0.statusCode, $0.headers)
                }
                return .success(
                    Response(
                        statusCode: raw.statusCode, data: raw.body, headers: raw.headers, request: request,
                        url: raw.url ?? last.url))
            } catch {
                return .failure(error)
            }
        case .immediate:
            return stubbedResponse(for: target, request: request)
        case .delayed(let seconds):
            do {
                try await Task.sleep(for: .seconds(seconds))
            } catch {
                return .failure(.cancelled)
            }
            return stubbedResponse(for: target, request: request)
        }
    }

    private func stream(
        _ request: URLRequest, for target: Target
    ) async -> Result<ProviderAnswer, NetworkError> {
        guard case .never = stubBehavior(target) else {
            return await send(request, for: target).map { response in
                var head = response
                head.data = Data()
                return ProviderAnswer(response: head, body: ResponseBody(response.data))
            }
        }
        do {
            let (raw, last) = try await followingRedirects(from: request, of: target) {
                (hop) throws(NetworkError) in
                try await transport.stream(hop)
            } head: {
                ($0.statusCode, $0.headers)
            }
            let head = Response(
                statusCode: raw.statusCode, data: Data(), headers: raw.headers, request: request,
                url: raw.url ?? last.url)
            return .success(ProviderAnswer(response: head, body: raw.body))
        } catch {
            return .failure(error)
        }
    }

    /// Sends `request` through `exchange`, and each redirect it is answered with, within one
    /// deadline of `request.timeoutInterval` seconds. Returns the last answer and its request.
    private func followingRedirects<Answer>(
        from request: URLRequest, of target: Target,
        _ exchange: (URLRequest) async throws(NetworkError) -> Answer,
        head: (Answer) -> (statusCode: Int, headers: [String: String])
    ) async throws(NetworkError) -> (Answer, URLRequest) {
        let timeout = request.timeoutInterval
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64((timeout * 1_000).rounded()))
        var hop = request
        var redirects = 0
        while true {
            let answer: Answer
            do {
                answer = try await exchange(hop)
            } catch .timeout {
                throw .timeout(seconds: timeout)  // the target's timeout, not a later hop's share
            }
            let (statusCode, headers) = head(answer)
            guard
                let next = try Redirection.request(
                    after: hop, statusCode: statusCode, headers: headers,
                    sensitiveHeaders: target.sensitiveHeaders)
            else { return (answer, hop) }
            redirects += 1
            guard redirects <= Self.maximumRedirects else {
                throw .transport(
                    TransportFailure(
                        kind: .tooManyRedirects,
                        message: "more than \(Self.maximumRedirects) redirects in a row"))
            }
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { throw .timeout(seconds: timeout) }
            hop = next
            hop.timeoutInterval = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        }
    }

    private func stubbedResponse(for target: Target, request: URLRequest) -> Result<Response, NetworkError> {
        switch sampleResponse(target) {
        case .networkResponse(let status, let data):
            .success(Response(statusCode: status, data: data, request: request))
        case .response(let status, let headers, let data):
            .success(Response(statusCode: status, data: data, headers: headers, request: request))
        case .networkError(let error):
            .failure(error)
        }
    }
}

/// The transport a provider uses when none is given: ``CurlTransport/shared``. It passes the
/// same conformance suite as ``URLSessionTransport``; its throughput against URLSession and
/// AsyncHTTPClient, measured with `bench network`, is recorded in Project.swift.md.
public var defaultTransport: any Transport { CurlTransport.shared }

/// One attempt's answer inside ``NetworkProvider``: the response, and for `bytes(_:)` its body
/// still arriving.
///
/// Neither a generic payload nor a type nested in the generic provider: either would be
/// handled through metadata built at run time, on every request.
private struct ProviderAnswer {
    var response: Response
    var body: ResponseBody?
}
