import Logging

/// Where layout writes what it breaks: a swift-log logger labelled `ribcage.layout`.
///
/// Required conflicts and misuse are logged as errors; optional constraints that gave way as
/// debug messages. Bootstrap swift-log to route them (a terminal app sends them to a file, not
/// over its own screen).
package enum LayoutLog {
    static let logger = Logger(label: "ribcage.layout")

    static func misuse(_ error: LayoutError) {
        logger.error("\(error.description)")
    }

    /// Misuse that changes nothing and throws nothing, such as the `ndl` DSL's content
    /// priorities on a layout guide.
    package static func misuse(_ message: String) {
        logger.error("\(message)")
    }

    static func gaveWay(_ constraint: ConstraintReference) {
        logger.debug("Optional constraint gave way: \(constraint.description)")
    }
}
