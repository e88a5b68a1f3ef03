import Foundation

/// The rules for a todo's title: one line, trimmed, not empty, at most ``maximumLength``
/// characters.
public enum TodoTitle {
    /// The longest title kept, in characters.
    public static let maximumLength = 200

    /// `raw` on one line (line breaks become spaces) and trimmed of surrounding whitespace.
    ///
    /// - Throws: ``TodoError/emptyTitle`` or ``TodoError/titleTooLong(limit:)``.
    public static func validated(_ raw: String) throws(TodoError) -> String {
        let title = raw.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { throw .emptyTitle }
        guard title.count <= maximumLength else { throw .titleTooLong(limit: maximumLength) }
        return title
    }
}
