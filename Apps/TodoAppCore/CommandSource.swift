import Foundation

/// Lines of commands: from a script file, from standard input, or typed at the prompt.
struct CommandSource: Sendable {
    private let lines: Lines

    /// `script` is a file path, `-` for standard input, or `nil` for the terminal.
    ///
    /// - Throws: ``AppError/cannotOpen(_:)`` for a script that cannot be read.
    init(script: String?) throws(AppError) {
        guard let script, script != "-" else {
            lines = Lines(prepared: nil)
            return
        }
        do {
            let text = try String(contentsOf: URL(fileURLWithPath: script), encoding: .utf8)
            lines = Lines(
                prepared: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        } catch {
            throw .cannotOpen("cannot read the script \(script): \(error.localizedDescription)")
        }
    }

    /// The next line, or `nil` at the end. Standard input is read off the main actor, so that
    /// requests in flight finish while the app waits for a line.
    func next() async -> String? {
        await lines.next()
    }

    private actor Lines {
        private var prepared: [String]?

        init(prepared: [String]?) {
            self.prepared = prepared
        }

        func next() async -> String? {
            if prepared != nil {
                return prepared?.isEmpty == false ? prepared?.removeFirst() : nil
            }
            return await Task.detached { readLine(strippingNewline: true) }.value
        }
    }
}
