import Histogram

/// Runs `bench network`'s peers in turns and collects their throughput and latencies.
///
/// Peers take turns in small batches, and each peer's time is the sum over its batches: this
/// machine's speed drifts by ±15% over seconds, far more than some of the differences measured,
/// and interleaving cancels the drift out. Each request's latency goes into an HdrHistogram.
struct NetworkMeasurement {
    /// One peer's figures for one way of sending.
    struct Figures {
        /// Requests per second, the median over the repetitions.
        var throughput: Double
        /// Every request's latency in nanoseconds, over all repetitions.
        var latency: Histogram<UInt64>
    }

    /// One peer's figures.
    struct Result {
        var sequential: Figures
        var concurrent: Figures
    }

    typealias Call = @Sendable () async throws -> Void

    let peers: [(String, Call)]
    let requests: Int
    let concurrency: Int
    let repetitions: Int

    private static let sequentialBatch = 50
    private var concurrentBatch: Int { concurrency * 25 }

    static func histogram() -> Histogram<UInt64> {
        Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    }

    func run() async throws -> [String: Result] {
        for (_, call) in peers {  // open the connections every peer will reuse
            for _ in 0..<20 { try await call() }
            _ = try await concurrently(call, requestsEach: 2)
        }
        var sequentialRates: [String: [Double]] = [:]
        var concurrentRates: [String: [Double]] = [:]
        var sequentialLatency: [String: Histogram<UInt64>] = [:]
        var concurrentLatency: [String: Histogram<UInt64>] = [:]
        let sequentialRounds = max(1, requests / Self.sequentialBatch)
        let concurrentRounds = max(1, requests / concurrentBatch)
        for _ in 0..<repetitions {
            var sequentialTime: [String: Duration] = [:]
            var concurrentTime: [String: Duration] = [:]
            for _ in 0..<sequentialRounds {
                for (name, call) in peers {
                    let (elapsed, latency) = try await sequentially(call, count: Self.sequentialBatch)
                    sequentialTime[name, default: .zero] += elapsed
                    sequentialLatency[name, default: Self.histogram()].add(latency)
                }
            }
            for _ in 0..<concurrentRounds {
                for (name, call) in peers {
                    let (elapsed, latency) = try await concurrently(
                        call, requestsEach: concurrentBatch / concurrency)
                    concurrentTime[name, default: .zero] += elapsed
                    concurrentLatency[name, default: Self.histogram()].add(latency)
                }
            }
            for (name, _) in peers {
                sequentialRates[name, default: []].append(
                    Double(sequentialRounds * Self.sequentialBatch)
                        / Measurement.seconds(sequentialTime[name, default: .zero]))
                concurrentRates[name, default: []].append(
                    Double(concurrentRounds * concurrentBatch)
                        / Measurement.seconds(concurrentTime[name, default: .zero]))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var results: [String: Result] = [:]
        for (name, _) in peers {
            results[name] = Result(
                sequential: Figures(
                    throughput: median(sequentialRates[name, default: [0]]),
                    latency: sequentialLatency[name, default: Self.histogram()]),
                concurrent: Figures(
                    throughput: median(concurrentRates[name, default: [0]]),
                    latency: concurrentLatency[name, default: Self.histogram()]))
        }
        return results
    }

    /// `count` calls one after the other: the time they took and each one's latency.
    private func sequentially(_ call: Call, count: Int) async throws -> (Duration, Histogram<UInt64>) {
        let clock = ContinuousClock()
        var latency = Self.histogram()
        let start = clock.now
        var last = start
        for _ in 0..<count {
            try await call()
            let now = clock.now
            _ = latency.record(Self.nanoseconds(now - last))
            last = now
        }
        return (last - start, latency)
    }

    /// `concurrency` tasks making `requestsEach` calls each.
    private func concurrently(_ call: @escaping Call, requestsEach: Int) async throws -> (
        Duration, Histogram<UInt64>
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let latency = try await withThrowingTaskGroup(of: Histogram<UInt64>.self) { group in
            for _ in 0..<concurrency {
                group.addTask { try await sequentially(call, count: requestsEach).1 }
            }
            var merged = Self.histogram()
            for try await part in group { merged.add(part) }
            return merged
        }
        return (clock.now - start, latency)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000
    }
}
