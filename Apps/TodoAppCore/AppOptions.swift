import ArgumentParser
import Foundation
import Layout

/// The command line, parsed by ArgumentParser: `[--script FILE|-] [--size WxH] [--offline]`.
///
/// It is a command only for its help and its errors; ``TodoApp`` parses it and runs the app.
struct AppOptions: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent },
            abstract: "A todo list and your pet's photo, in the terminal.",
            discussion: """
                Environment: TODOAPP_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, TODOAPP_API_BASE_URL, \
                TODOAPP_TIMEOUT, CAT_API_KEY (TodoApp-Cat), NO_COLOR.
                TODOAPP_API_BASE_URL may be a bare origin (http://127.0.0.1:8080): the API's path \
                (/api for Dog, /v1 for Cat) is added.
                In the app, press ? for the keys and : to type a command.
                """)
    }

    @Option(
        help: ArgumentHelp(
            """
            Run the commands in FILE (or standard input for -) and print the frame after each; \
            # starts a comment line. Exits 65 when a line failed, naming it on standard error.
            """, valueName: "FILE|-"))
    var script: String?

    @Option(
        help: ArgumentHelp(
            "The screen's size in cells (default: the terminal's, or 80x24).", valueName: "WxH"),
        transform: AppOptions.size)
    var size: Size?

    @Flag(
        help: """
            Show the sample photos shipped with the app instead of calling the API. This is the \
            default when the API's host cannot be resolved.
            """)
    var offline = false

    /// `WxH`, with W 40…1000 and H 12…1000: smaller screens cannot show the app.
    static func size(_ text: String) throws -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (40...1000).contains(width), (12...1000).contains(height)
        else { throw ValidationError("--size takes WxH with W 40…1000 and H 12…1000, not \(text)") }
        return Size(width: Double(width), height: Double(height))
    }
}
