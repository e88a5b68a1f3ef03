import Layout

/// The command line: `[--script FILE|-] [--size WxH] [--offline] [--help]`.
public struct AppOptions: Sendable, Equatable {
    /// Where commands come from without interaction: a file, or `-` for standard input.
    public var script: String?
    /// The window's size; the terminal's, or 80×24, when not given.
    public var size = Size(width: 80, height: 24)
    /// Whether `--size` was given.
    public var hasExplicitSize = false
    /// Serve the bundled sample answers.
    public var offline = false
    /// Print the usage and stop.
    public var wantsHelp = false

    /// The usage text.
    public static func usage(for name: String) -> String {
        """
        Usage: \(name) [--script FILE|-] [--size WxH] [--offline]

          --script FILE|-  Run the commands in FILE (or standard input) and print every frame.
          --size WxH       The screen's size in cells (default: the terminal's, or 80x24).
          --offline        Serve bundled sample answers instead of calling the API. This is the
                           default when the API's host cannot be resolved.

        Environment: TODOAPP_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, TODOAPP_API_BASE_URL,
        TODOAPP_TIMEOUT, CAT_API_KEY (TodoApp-Cat), NO_COLOR.
        Type `help` in the app for its commands.
        """
    }

    /// Parses `arguments` (without the program's name).
    ///
    /// - Throws: ``AppError/badArgument(_:)`` naming what is wrong.
    public init(arguments: [String]) throws(AppError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--script":
                guard let value = rest.popFirst() else { throw .badArgument("--script needs a file or -") }
                script = value
            case "--size":
                guard let value = rest.popFirst() else { throw .badArgument("--size needs WxH, e.g. 80x24") }
                size = try Self.size(value)
                hasExplicitSize = true
            case "--offline": offline = true
            case "--help", "-h": wantsHelp = true
            default: throw .badArgument("unknown argument \(argument)")
            }
        }
    }

    private static func size(_ text: String) throws(AppError) -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (40...1000).contains(width), (12...1000).contains(height)
        else { throw .badArgument("--size takes WxH with W 40…1000 and H 12…1000, not \(text)") }
        return Size(width: Double(width), height: Double(height))
    }
}
