import Foundation
import RibcagePackage

/// The Mermaid graph a Markdown file embeds between two marker comments, which
/// `ribcage graph --update-markdown` rewrites.
package enum MarkdownGraphBlock {
    /// The comment before the block.
    package static let begin = "<!-- ribcage graph begin -->"
    /// The comment after the block.
    package static let end = "<!-- ribcage graph end -->"

    /// `text` with the block between the markers replaced by a fenced `mermaid` block.
    ///
    /// - Throws: ``RibcageError/markdownMarkersMissing(_:)`` when the markers are missing or out of
    ///   order.
    package static func replacing(in text: String, with mermaid: String, file: String) throws -> String {
        guard let start = text.range(of: begin),
            let finish = text.range(of: end, range: start.upperBound..<text.endIndex)
        else {
            throw RibcageError.markdownMarkersMissing(file)
        }
        let block = "\n```mermaid\n\(mermaid)```\n"
        return String(text[..<start.upperBound]) + block + String(text[finish.lowerBound...])
    }
}

extension MarkdownGraphBlock {
    /// Rewrites the block in the Markdown file at `path`, leaving the file untouched when it
    /// already holds this graph.
    ///
    /// - Throws: ``RibcageError/outputUnwritable(path:reason:)`` when the file cannot be read or
    ///   written, ``RibcageError/markdownMarkersMissing(_:)`` when it has no block.
    package static func update(file path: String, with mermaid: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RibcageError.outputUnwritable(path: path, reason: "it cannot be read as UTF-8 text")
        }
        let updated = try replacing(in: text, with: mermaid, file: path)
        if updated != text { try OutputFile.write(Data(updated.utf8), to: path) }
    }
}
