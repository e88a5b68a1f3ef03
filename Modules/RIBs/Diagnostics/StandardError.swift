#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to standard error, unbuffered, so it is not lost if the process then stops.
func printToStandardError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return }
        _ = write(STDERR_FILENO, base, bytes.count)
    }
}
