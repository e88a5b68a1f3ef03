import CMallocStats

/// Timing and memory helpers shared by the benchmarks.
enum Measurement {
    /// Runs `body` `repetitions` times and returns the median duration in seconds.
    ///
    /// The median, not the mean, because these machines are shared and noisy: one slow run
    /// should not move the figure.
    static func median(repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let elapsed = try clock.measure(body)
            samples.append(seconds(elapsed))
        }
        return samples.sorted()[samples.count / 2]
    }

    /// Async variant of ``median(repetitions:_:)``.
    static func median(repetitions: Int, _ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let start = clock.now
            try await body()
            samples.append(seconds(clock.now - start))
        }
        return samples.sorted()[samples.count / 2]
    }

    /// The seconds one run of `body` takes.
    static func seconds(of body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return seconds(clock.now - start)
    }

    /// Runs `body` `repetitions` times and returns the median of the seconds it measured
    /// itself, for a time that starts or ends somewhere a clock around `body` cannot see, such
    /// as the moment a child's frame was read.
    static func medianOfMeasured(repetitions: Int, _ body: () async throws -> Double) async rethrows -> Double
    {
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(try await body()) }
        return samples.sorted()[samples.count / 2]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Bytes currently allocated through malloc (glibc's `mallinfo2().uordblks`).
    static func allocatedBytes() -> Int {
        Int(ribcage_malloc_in_use())
    }

    /// Formats a number with thousands separators.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }

    /// Formats seconds as milliseconds with two decimals.
    static func milliseconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "—" }
        let hundredths = Int((seconds * 100_000).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    /// Formats a ratio as `1.23×`.
    static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)×"
    }
}

extension String {
    /// The string right-aligned in `width` columns, for the benchmarks' tables.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
