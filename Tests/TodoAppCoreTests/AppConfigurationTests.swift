import Foundation
import Testing

@testable import TodoAppCore

@Suite("The command line and the environment")
struct AppConfigurationTests {
    @Test("options: script, size, offline, help; each bad one named")
    func options() throws {
        let options = try AppOptions(arguments: ["--script", "-", "--size", "100x30", "--offline"])
        #expect(options.script == "-")
        #expect(options.size.width == 100 && options.size.height == 30)
        #expect(options.hasExplicitSize && options.offline && !options.wantsHelp)
        #expect(try AppOptions(arguments: ["-h"]).wantsHelp)
        #expect(throws: AppError.badArgument("--script needs a file or -")) {
            try AppOptions(arguments: ["--script"])
        }
        #expect(throws: AppError.badArgument("unknown argument --color")) {
            try AppOptions(arguments: ["--color"])
        }
        #expect(throws: AppError.self) { try AppOptions(arguments: ["--size", "wide"]) }
    }

    @Test("TODOAPP_HOME puts data and UserDefaults under it; XDG folders otherwise")
    func folders() throws {
        let options = try AppOptions(arguments: [])
        let home = try AppConfiguration(
            flavor: .dog, options: options, environment: ["TODOAPP_HOME": "/srv/todo", "HOME": "/home/ada"])
        #expect(home.dataDirectory.path == "/srv/todo/data/TodoApp-Dog")
        #expect(home.configDirectory.path == "/srv/todo/config")
        let xdg = try AppConfiguration(
            flavor: .cat, options: options,
            environment: ["XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "HOME": "/home/ada"])
        #expect(xdg.dataDirectory.path == "/d/TodoApp-Cat")
        #expect(xdg.configDirectory.path == "/c")
        let plain = try AppConfiguration(flavor: .cat, options: options, environment: ["HOME": "/home/ada"])
        #expect(plain.dataDirectory.path == "/home/ada/.local/share/TodoApp-Cat")
    }

    @Test("the API base, the key and the timeout come from the environment, checked")
    func apiSettings() throws {
        let options = try AppOptions(arguments: [])
        let configuration = try AppConfiguration(
            flavor: .cat, options: options,
            environment: [
                "TODOAPP_API_BASE_URL": "http://127.0.0.1:8080/v1", "CAT_API_KEY": "k",
                "TODOAPP_TIMEOUT": "2.5",
            ])
        #expect(configuration.apiBaseURL?.absoluteString == "http://127.0.0.1:8080/v1")
        #expect(configuration.catAPIKey == "k")
        #expect(configuration.requestTimeout == 2.5)
        #expect(throws: AppError.self) {
            try AppConfiguration(flavor: .dog, options: options, environment: ["TODOAPP_TIMEOUT": "-1"])
        }
        #expect(throws: AppError.self) {
            try AppConfiguration(
                flavor: .dog, options: options, environment: ["TODOAPP_API_BASE_URL": "dog.ceo"])
        }
    }

    @Test("a host that cannot resolve makes the app choose offline")
    func reachability() async {
        #expect(await !Reachability.canResolve("no-such-host.invalid"))
    }
}
