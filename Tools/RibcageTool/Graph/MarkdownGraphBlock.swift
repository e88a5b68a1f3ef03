/// The Mermaid graph a Markdown file embeds between two marker comments, which
/// `ribcage graph --update-markdown` rewrites.
package enum MarkdownGraphBlock {
    /// The comment before the block.
    package static let begin = "<!-- ribcage graph begin -->"
    /// The comment after the block.
    package static let end = "<!-- ribcage graph end -->"

    /// `text` with the block between the markers replaced by a fenced `mermaid` block.
    ///
    /// - Throws: ``RibcageError/markdownMarkersMissing(_:)`` when the markers are missing or out of order.
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
