import Foundation

/// The lines of a script: a file, or standard input for `-`. LF and CRLF both end a line; a
/// line whose first non-blank character is `#` is a comment.
struct CommandSource: Sendable {
    /// One line, numbered from 1 as an editor shows it.
    struct Line: Sendable, Equatable {
        let number: Int
        let text: String

        /// The command on the line; `nil` for a blank line or a comment.
        var command: String? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
            return trimmed
        }
    }

    private let lines: Lines

    /// `script` is a path to any readable file (a pipe and `/dev/null` too), or `-` for standard
    /// input, which is read a line at a time as it comes.
    ///
    /// - Throws: ``AppError/cannotOpen(_:)`` for a script that cannot be read.
    init(script: String) throws(AppError) {
        guard script != "-" else {
            lines = Lines(prepared: nil)
            return
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: script))
            defer { try? handle.close() }  // read-only: closing cannot lose data
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw .cannotOpen("cannot read the script \(script): \(Self.reason(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .cannotOpen("cannot read the script \(script): it is not UTF-8 text")
        }
        lines = Lines(prepared: Self.split(text))
    }

    /// `text`'s lines, with LF or CRLF endings, numbered from 1.
    static func split(_ text: String) -> [Line] {
        var result: [Line] = []
        // Swift treats "\r\n" as one Character, so split on both.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            result.append(Line(number: index + 1, text: String(line)))
        }
        if result.last?.text.isEmpty == true { result.removeLast() }
        return result
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return error.localizedDescription
    }

    /// The next line, or `nil` at the end. Standard input is read on a thread of its own, so
    /// that no thread of the pool blocks and requests in flight finish while the app waits for a
    /// line.
    func next() async -> Line? {
        await lines.next()
    }

    private actor Lines {
        private var prepared: [Line]?
        private var read = 0
        private var standardInput: AsyncStream<String>.AsyncIterator?

        init(prepared: [Line]?) {
            self.prepared = prepared
        }

        func next() async -> Line? {
            if let prepared {
                guard read < prepared.count else { return nil }
                read += 1
                return prepared[read - 1]
            }
            var lines = standardInput ?? Self.readStandardInput().makeAsyncIterator()
            let text = await lines.next(isolation: self)
            standardInput = lines
            guard let text else { return nil }
            read += 1
            return Line(number: read, text: text.hasSuffix("\r") ? String(text.dropLast()) : text)
        }

        /// Standard input's lines, read by a thread that blocks in `readLine` until the end.
        private static func readStandardInput() -> AsyncStream<String> {
            let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.name = "TodoApp standard input"
            thread.start()
            return stream
        }
    }
}
