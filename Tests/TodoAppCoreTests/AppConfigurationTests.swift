import ArgumentParser
import Foundation
import Testing

@testable import TodoAppCore

@Suite("The command line and the environment")
struct AppConfigurationTests {
    @Test("options: script, size and offline, parsed by ArgumentParser; a bad one is a usage error (64)")
    func options() throws {
        let options = try AppOptions.parse(["--script", "-", "--size", "100x30", "--offline"])
        #expect(options.script == "-")
        #expect(options.size?.width == 100 && options.size?.height == 30)
        #expect(options.offline)
        let defaults = try AppOptions.parse([])
        #expect(defaults.script == nil && defaults.size == nil && !defaults.offline)
        for arguments in [["--script"], ["--color"], ["--size", "wide"], ["--size", "39x20"]] {
            #expect(throws: (any Error).self, "\(arguments)") {
                do {
                    _ = try AppOptions.parse(arguments)
                } catch {
                    #expect(AppOptions.exitCode(for: error) == .validationFailure, "\(arguments)")
                    throw error
                }
            }
        }
        do {
            _ = try AppOptions.parse(["--size", "10x2"])
        } catch {
            #expect(
                AppOptions.fullMessage(for: error).contains("--size takes WxH with W 40…1000 and H 12…1000"))
        }
    }

    @Test("--help prints the options and the environment, and exits 0")
    func help() {
        do {
            _ = try AppOptions.parse(["--help"])
            Issue.record("--help parsed as a run")
        } catch {
            #expect(AppOptions.exitCode(for: error) == .success)
            let help = AppOptions.fullMessage(for: error)
            for expected in ["--script <FILE|->", "--size <WxH>", "--offline", "TODOAPP_HOME", "CAT_API_KEY"]
            {
                #expect(help.contains(expected), "\(expected)")
            }
        }
    }

    @Test("TODOAPP_HOME puts data and UserDefaults under it; XDG folders otherwise")
    func folders() throws {
        let options = try AppOptions.parse([])
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
        let options = try AppOptions.parse([])
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

    @Test("a bare origin gets the API's path; a URL with a path is taken as it is")
    func bareOrigin() throws {
        let options = try AppOptions.parse([])
        for (flavor, base, expected) in [
            (AppFlavor.dog, "http://127.0.0.1:8080", "http://127.0.0.1:8080/api"),
            (.dog, "http://127.0.0.1:8080/", "http://127.0.0.1:8080/api"),
            (.cat, "https://cats.example", "https://cats.example/v1"),
            (.cat, "http://127.0.0.1:8080/mirror/v1", "http://127.0.0.1:8080/mirror/v1"),
        ] {
            let configuration = try AppConfiguration(
                flavor: flavor, options: options, environment: ["TODOAPP_API_BASE_URL": base])
            #expect(configuration.apiBaseURL?.absoluteString == expected, "\(base)")
        }
    }

    @Test("script lines: LF and CRLF, numbered from 1; blank lines and # comments carry no command")
    func scriptLines() {
        let lines = CommandSource.split("new\r\nsave a # not a comment\r\n\r\n  # a comment\nquit\n")
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5])
        #expect(lines.map(\.command) == ["new", "save a # not a comment", nil, nil, "quit"])
        #expect(CommandSource.split("").isEmpty)
        #expect(CommandSource.split("a").map(\.text) == ["a"])
    }

    @Test("a host that cannot resolve makes the app choose offline")
    func reachability() async {
        #expect(await !Reachability.canResolve("no-such-host.invalid"))
    }
}
