/// The `grpc-timeout` header: at most eight digits and a unit, so the server can stop work
/// whose caller has given up.
enum GRPCTimeout {
    static func headerValue(_ timeout: Duration) -> String {
        let milliseconds = max(
            0, timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        // Milliseconds up to eight digits (about 27 hours); whole seconds, then hours, beyond.
        if milliseconds < 100_000_000 { return "\(milliseconds)m" }
        let seconds = milliseconds / 1_000
        if seconds < 100_000_000 { return "\(seconds)S" }
        return "\(min(seconds / 3_600, 99_999_999))H"
    }
}
