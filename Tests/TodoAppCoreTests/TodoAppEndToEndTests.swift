import Foundation
import HTTPTestServer
import HeadlessUITesting
import Subprocess
import Testing

/// The built executables, run with `--script` against a loopback server, frame by frame.
@Suite("TodoApp end to end: the built executables against a local server", .serialized)
struct TodoAppEndToEndTests {
    static let dogJSON =
        #"{"message":"https://images.dog.ceo/breeds/terrier-norfolk/n02094114_1505.jpg","status":"success"}"#

    /// A real JPEG (226×150), made from the CC0 sample cat the app ships
    /// (`Apps/TodoAppCore/Samples/SOURCES.md`) with libjpeg's `cjpeg`.
    static let jpeg = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Images/chelsea-small.jpg")

    /// Dog CEO's answer, pointing at an image on the same loopback server.
    static func dogAnswer(host: String?) -> String {
        #"{"message":"http://\#(host ?? "127.0.0.1")/breeds/terrier-norfolk/n02094114_1505.jpg","status":"success"}"#
    }

    /// The Cat API's answer, pointing at an image on the same loopback server.
    static func catAnswer(host: String?) -> String {
        #"[{"id":"0XYvRd7oD","url":"http://\#(host ?? "127.0.0.1")/images/0XYvRd7oD.jpg","width":1204,"height":1445,"breeds":[{"id":"abys","name":"Abyssinian"}]}]"#
    }

    /// The JPEG, for a request of an image path.
    static func image() -> HTTPTestReply {
        guard let data = try? Data(contentsOf: jpeg) else { return .status(500) }
        return HTTPTestReply(status: 200, headers: [("Content-Type", "image/jpeg")], body: data)
    }

    /// How many cells of `frame` are the ASCII brightness ramp a photo is drawn with in a
    /// script's uncoloured frames.
    static func pictureCells(_ frame: String) -> Int {
        frame.filter { ":-=+*#%@".contains($0) }.count
    }

    @Test(
        "Dog: add, back, toggle, edit, delete, filter, clear, profile, favourite; the RIB tree after each step; all of it after a relaunch"
    )
    func dogFlavor() async throws {
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random": .json(Self.dogAnswer(host: request.header("Host")))
            case "/breeds/terrier-norfolk/n02094114_1505.jpg": Self.image()
            default: .status(404)
            }
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = server.url("/").absoluteString

        let run = try await app.run([
            "new", "tree", "save buy milk", "tree",
            "new", "back", "tree",
            "new", "save walk the dog", "new", "cancel", "tree",
            "new", "save   ", "back",
            "done 1", "edit 2 walk the dog twice", "filter done", "filter active", "filter all",
            "new", "save temporary", "delete 3", "clear",
            "tab profile", "name Ada Lovelace", "bio Dogs > cats", "fav", "tab todo", "quit",
        ])
        #expect(run.status == .exited(0), "exit \(run.status): \(run.errors)")
        #expect(run.errors.isEmpty, "no leak or error reports: \(run.errors)")

        #expect(run.after("new")?.contains("New todo") == true)
        #expect(run.after("tree")?.contains("└─ AddTodoRouter [active, view]") == true)
        #expect(run.after("save buy milk")?.contains("1. [ ] buy milk") == true)
        #expect(run.after("tree", occurrence: 1)?.contains("AddTodoRouter") == false)
        #expect(run.after("back")?.contains("New todo") == false)
        #expect(run.after("tree", occurrence: 2)?.contains("AddTodoRouter") == false, "back detaches AddTodo")
        #expect(run.after("cancel")?.contains("2. [ ] walk the dog") == true)
        #expect(run.after("tree", occurrence: 3)?.contains("AddTodoRouter") == false)
        #expect(run.after("save")?.contains("A todo needs a title.") == true)
        #expect(run.after("done 1")?.contains("1. [x] buy milk") == true)
        #expect(run.after("edit 2 walk the dog twice")?.contains("2. [ ] walk the dog twice") == true)
        let done = try #require(run.after("filter done"))
        #expect(done.contains("1. [x] buy milk") && !done.contains("walk"))
        #expect(run.after("filter active")?.contains("1. [ ] walk the dog twice") == true)
        #expect(run.after("delete 3")?.contains("3. [ ] temporary") == false)
        #expect(run.after("delete 3")?.contains("Deleted \"temporary\". Press u to undo.") == true)
        let cleared = try #require(run.after("clear"))
        #expect(cleared.contains("Cleared 1 done.") && cleared.contains("1. [ ] walk the dog twice"))

        let profile = try #require(run.after("tab profile"))
        #expect(profile.contains("Your dog: norfolk terrier · size unknown"))
        #expect(Self.pictureCells(profile) > 100, "the JPEG is drawn, not named: \(profile)")
        #expect(profile.contains("TodoApp-Dog"))
        #expect(run.after("fav")?.contains("1 kept") == true)
        #expect(run.after("name Ada Lovelace")?.contains("Name saved.") == true)

        let relaunch = try await app.run(["tree", "tab profile", "quit"])
        #expect(relaunch.status == .exited(0))
        #expect(relaunch.output.contains("1. [ ] walk the dog twice"))
        #expect(!relaunch.output.contains("buy milk"))
        let relaunchedProfile = try #require(relaunch.after("tab profile"))
        #expect(relaunchedProfile.contains("Ada Lovelace"))
        #expect(relaunchedProfile.contains("Dogs > cats"))
        #expect(relaunchedProfile.contains("1 kept"))
        #expect(relaunch.after("tree")?.contains("ProfileRouter [active, view]") == true)
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("config/TodoApp-Dog.profile.plist").path))
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("data/TodoApp-Dog/todo-list.journal").path))
    }

    @Test(
        "Cat: the key goes in x-api-key and is never printed; breed and size from the answer; its own storage"
    )
    func catFlavor() async throws {
        let server = try HTTPTestServer { request in
            if request.path == "/images/0XYvRd7oD.jpg" { return Self.image() }
            guard request.path == "/v1/images/search" else { return .status(404) }
            guard request.header("x-api-key") == "s3cret-key" else {
                // Late, so that a frame drawn before the answer would show it missing: the
                // keyless run opens on the Profile tab it kept, and its request starts with
                // the launch, not with `tab profile`.
                return .json(
                    #"{"message":"AUTHENTICATION_ERROR - no valid x-api-key in header","status":401}"#,
                    status: 401
                ).delayed(by: 1)
            }
            return .json(Self.catAnswer(host: request.header("Host")))
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppCat", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = server.url("/v1").absoluteString
        app.environment["CAT_API_KEY"] = "s3cret-key"
        let run = try await app.run(["new", "save feed the cat", "tab profile", "refresh", "fav", "quit"])
        #expect(run.status == .exited(0), "\(run.errors)")
        let profile = try #require(run.after("tab profile"))
        #expect(profile.contains("Your cat: Abyssinian · 1204×1445"))
        #expect(Self.pictureCells(profile) > 100, "the JPEG is drawn: \(profile)")
        #expect(profile.contains("TodoApp-Cat"))
        #expect(!run.output.contains("s3cret-key") && !run.errors.contains("s3cret-key"))
        #expect(
            FileManager.default.fileExists(
                atPath: home.url.appendingPathComponent("data/TodoApp-Cat/todo-list.journal").path))

        app.environment["CAT_API_KEY"] = nil
        let keyless = try await app.run(
            ["tab profile", "tab todo", "quit"], arguments: ["--size", "120x24"])
        let keylessProfile = try #require(keyless.after("tab profile"))
        #expect(
            keylessProfile.contains(
                "The API answered 401: AUTHENTICATION_ERROR - no valid x-api-key in header"),
            "in the photo's place: \(keylessProfile)")
        #expect(keyless.after("tab todo")?.contains("1. [ ] feed the cat") == true, "the todos keep working")
    }

    @Test(
        "an HTTP error, malformed JSON, a timeout and no server each show a status line; the todos keep working"
    )
    func failuresStayInside() async throws {
        let answers = ["500", "malformed", "slow"]
        for answer in answers {
            let server = try HTTPTestServer { _ in
                switch answer {
                case "500": .json(#"{"status":"error","message":"Internal trouble","code":500}"#, status: 500)
                case "malformed": .json(#"{"message": "https://images.dog.ceo/breeds/pug/x.jpg", "#)
                default: .json(Self.dogJSON).delayed(by: 3)
                }
            }
            defer { server.stop() }
            let home = try TemporaryHome()
            var app = try AppProcess("TodoAppDog", home: home.url)
            app.environment["TODOAPP_API_BASE_URL"] = server.url("/api").absoluteString
            app.environment["TODOAPP_TIMEOUT"] = "0.5"
            let run = try await app.run(["tab profile", "tab todo", "new", "save still works", "quit"])
            #expect(run.status == .exited(0), "\(answer): \(run.errors)")
            let profile = try #require(run.after("tab profile"))
            switch answer {
            case "500": #expect(profile.contains("The API answered 500: Internal trouble"))
            case "malformed": #expect(profile.contains("The API's answer was malformed"))
            default: #expect(profile.contains("The photo request timed out."))
            }
            #expect(run.after("save still works")?.contains("1. [ ] still works") == true, "\(answer)")
        }

        let stopped = try HTTPTestServer { _ in .status(200) }
        let address = stopped.url("/api").absoluteString
        stopped.stop()
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = address
        let run = try await app.run(["tab profile", "quit"])
        #expect(run.after("tab profile")?.contains("No network:") == true)
    }

    @Test("a short Dog session's frames match the golden file, character for character")
    func goldenFrames() async throws {
        let server = try HTTPTestServer { request in
            request.path.hasSuffix(".jpg")
                ? Self.image() : .json(Self.dogAnswer(host: request.header("Host")))
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = server.url("/api").absoluteString
        let run = try await app.run(
            ["new", "save Buy oat milk", "new", "save 한국어 제목도 됩니다", "done 1", "tab profile", "quit"],
            arguments: ["--size", "64x14"])
        #expect(run.status == .exited(0))
        assertSnapshot(run.output, named: "dog-session-64x14")
    }

    @Test(
        "--offline draws the sample photos shipped as resources, one more on each refresh; Dog's is a labelled placeholder"
    )
    func offline() async throws {
        let home = try TemporaryHome()
        let run = try await AppProcess("TodoAppCat", home: home.url).run(
            ["tab profile", "refresh", "refresh", "quit"], arguments: ["--offline"])
        #expect(run.status == .exited(0), "\(run.errors)")
        let first = try #require(run.after("tab profile"))
        #expect(first.contains("Your cat: Chelsea, a tabby (sample photo, CC0) · 451×300"))
        #expect(Self.pictureCells(first) > 100, "drawn: \(first)")
        #expect(run.after("refresh")?.contains("placeholder: no second licensed cat photo") == true)
        #expect(run.after("refresh", occurrence: 1)?.contains("Chelsea") == true, "round again")
        let dog = try await AppProcess("TodoAppDog", home: home.url).run(
            ["tab profile", "quit"], arguments: ["--offline"])
        #expect(
            dog.after("tab profile")?.contains("Your dog: placeholder: no licensed dog photo ships") == true)
    }

    @Test(
        "a script: CRLF or LF, # comments, every failing line named with its number and exit 65; /dev/null and - work"
    )
    func scripts() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let script = home.url.appendingPathComponent("todo.txt")
        try Data(
            "# groceries\r\nnew\r\nsave oat milk\r\ndone 7\r\n\r\nsave stray\r\nfrobnicate\r\nquit\r\n".utf8
        )
        .write(to: script)
        let run = try await app.run(arguments: ["--script", script.path, "--size", "80x24", "--offline"])
        #expect(run.status == .exited(65))
        #expect(run.output.contains("1. [ ] oat milk"), "CRLF lines are lines")
        #expect(!run.output.contains("> # groceries"), "a comment is not run")
        #expect(run.errors.contains("line 4: done 7: There is no row 7; rows go 1 to 1."))
        #expect(run.errors.contains("line 6: save stray: `save` belongs to the New todo form"))
        #expect(run.errors.contains("line 7: frobnicate: Unknown command `frobnicate`."))
        #expect(run.errors.split(separator: "\n").count == 3, "\(run.errors)")
        let empty = try await app.run(arguments: ["--script", "/dev/null", "--size", "80x24", "--offline"])
        #expect(empty.status == .exited(0), "\(empty.errors)")
        let piped = try await app.run(["new", "save from a pipe", "quit"], arguments: ["--offline"])
        #expect(piped.status == .exited(0))
        #expect(piped.output.contains("2. [ ] from a pipe"))
    }

    @Test("TODOAPP_API_BASE_URL as a bare origin gets the API's path; a wrong base says the URL it tried")
    func apiOverride() async throws {
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/breeds/image/random": .json(Self.dogAnswer(host: request.header("Host")))
            case let path where path.hasSuffix(".jpg"): Self.image()
            default: .status(404)
            }
        }
        defer { server.stop() }
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = server.url("/").absoluteString
        let bare = try await app.run(["tab profile", "quit"])
        #expect(bare.after("tab profile")?.contains("Your dog: norfolk terrier") == true)
        app.environment["TODOAPP_API_BASE_URL"] = server.url("/wrong").absoluteString
        let wrong = try await app.run(["tab profile", "quit"], arguments: ["--size", "200x24"])
        let tried = server.url("/wrong/breeds/image/random").absoluteString
        #expect(wrong.after("tab profile")?.contains("The API answered 404: no answer at \(tried)") == true)
    }

    @Test("a kill right after a save loses nothing", .timeLimit(.minutes(10)))
    func killAfterSave() async throws {
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        app.environment["TODOAPP_API_BASE_URL"] = "http://127.0.0.1:9/api"
        let killed = try await app.kill(
            afterTyping: "new\nsave survive the kill\n", once: "Added \"survive the kill\".")
        #expect(killed.output.contains("Added \"survive the kill\"."))
        #expect(killed.status == .signaled(SIGKILL))

        let relaunch = try await app.run(["quit"])
        #expect(relaunch.output.contains("1. [ ] survive the kill"))
    }

    @Test(
        "bad arguments and environment are refused with a usage message and exit 64; an unreadable script is 73"
    )
    func badInput() async throws {
        let home = try TemporaryHome()
        var app = try AppProcess("TodoAppDog", home: home.url)
        let size = try await app.run(arguments: ["--size", "10x2"])
        #expect(size.status == .exited(64))
        #expect(size.errors.contains("--size takes WxH"))
        #expect(try await app.run(arguments: ["--frobnicate"]).status == .exited(64))
        #expect(
            try await app.run(arguments: ["--script", home.url.appendingPathComponent("missing.txt").path])
                .status
                == .exited(73))
        app.environment["TODOAPP_API_BASE_URL"] = "ftp://example.com"
        let url = try await app.run(arguments: ["--offline"])
        #expect(url.status == .exited(64))
        #expect(url.errors.contains("TODOAPP_API_BASE_URL is not an http(s) URL"))
        let help = try await AppProcess("TodoAppDog", home: home.url).run(arguments: ["--help"])
        #expect(help.status == .exited(0) && help.output.contains("USAGE: TodoAppDog"))
    }
}
