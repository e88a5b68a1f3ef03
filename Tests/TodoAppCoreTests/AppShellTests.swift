import Domain
import DomainTesting
import Foundation
import HeadlessUI
import HeadlessUITesting
import Layout
import RIBs
import Reactor
import Root
import TerminalCore
import Testing

@testable import TodoAppCore

/// The app's objects kept in memory, so that the shell and the RIB tree can be driven in this
/// process, key by key, without touching the user's folders.
@MainActor
final class InMemoryApp: RootDependency {
    let appName = "TodoApp-Dog"
    let accentColor = Color.yellow
    let todos: InMemoryTodoRepository
    let store = InMemoryProfileStore(profile: Profile(name: "Ada Lovelace", bio: "Dogs > cats"))
    lazy var favoritePhotos = FavoritePhotos(repository: store)
    let photos: InMemoryPetPhotoRepository
    var todoRepository: any TodoRepository { todos }
    var profileRepository: any ProfileRepository { store }
    var petPhotoRepository: any PetPhotoRepository { photos }
    var screenPreferences: any ScreenPreferencesRepository { store }

    /// The real sample cat, 451×300.
    static let chelsea = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Apps/TodoAppCore/Samples/cat-chelsea.png")

    init(titles: [String]) throws {
        todos = InMemoryTodoRepository(titles.map { Todo(title: $0) })
        let photo = PetPhoto(id: "c", pet: .dog, url: Self.chelsea, breed: "tabby", width: 451, height: 300)
        photos = InMemoryPetPhotoRepository(
            pet: .dog, answers: [.success(photo)], images: [Self.chelsea: try Data(contentsOf: Self.chelsea)])
    }

}

extension RootDependency {
    /// The shell with the RIB tree launched into it, in a window of `size`, what the launch set
    /// going done: the todos read, the first photo drawn.
    func launch(size: Size) async -> (window: Window, shell: AppShellController, router: any LaunchRouting) {
        let window = Window(size: size)
        let shell = AppShellController()
        window.rootViewController = shell
        let router = RootBuilder(dependency: self).build()
        shell.treeText = { RouterTree(router).text }
        await SentActions.during { router.launch(from: shell) }.reduced()
        return (window, shell, router)
    }
}

@MainActor
@Suite("The app's shell: status line, : prompt, help bar and overlays, driven by keys")
struct AppShellTests {
    /// Presses `keys` through the pilot and returns once the reactor work they set going is on
    /// the screen, as the terminal run loop would show it.
    private func press(_ pilot: TerminalPilot, _ keys: KeyPress...) async {
        for key in keys {
            await SentActions.during { pilot.press(key) }.reduced()
            pilot.redraw(label: "after \(key)")
        }
    }

    @Test(
        "keys add, toggle, delete and undo; the status line says each outcome; the help bar follows the screen"
    )
    func keyboardFirst() async throws {
        let app = try InMemoryApp(titles: ["buy milk"])
        let (window, _, router) = await app.launch(size: Size(width: 80, height: 24))
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 24))
        #expect(pilot.screen.contains("› 1. [ ] buy milk"))
        #expect(pilot.screen.contains("n New"), "the help bar shows the list's keys")
        await press(pilot, KeyPress("n"))
        #expect(pilot.screen.contains("New todo"))
        #expect(!pilot.screen.contains("n New"), "a form's letters are typed, so the list's keys go")
        pilot.type("walk the dog")
        await press(pilot, KeyPress(.enter))
        #expect(pilot.screen.contains("Added \"walk the dog\"."))
        #expect(pilot.screen.contains("› 2. [ ] walk the dog"), "the new todo is selected")
        await press(pilot, KeyPress(" "))
        #expect(pilot.screen.contains("2. [x] walk the dog"))
        await press(pilot, KeyPress("d"))
        #expect(pilot.screen.contains("Deleted \"walk the dog\". Press u to undo."))
        #expect(!pilot.screen.contains("2. [x] walk the dog"))
        await press(pilot, KeyPress("u"))
        #expect(pilot.screen.contains("Put back \"walk the dog\"."))
        #expect(app.todos.savedTodos.map(\.title) == ["buy milk", "walk the dog"])
        router.interactable.deactivate()
    }

    @Test(
        "the : prompt edits, completes with Tab, keeps history, and a command of another screen says where it belongs"
    )
    func prompt() async throws {
        let app = try InMemoryApp(titles: ["buy milk"])
        let (window, _, router) = await app.launch(size: Size(width: 80, height: 24))
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 24))
        await press(pilot, KeyPress(":"))
        pilot.type("fil")
        await press(pilot, KeyPress(.tab))
        #expect(pilot.screen.contains(":filter"), "completed: \(pilot.screen)")
        pilot.type("done")
        await press(pilot, KeyPress(.enter))
        #expect(pilot.screen.contains("showing done (0)"))
        await press(pilot, KeyPress(":"), KeyPress(.up))
        #expect(pilot.screen.contains(":filter done"), "history")
        await press(pilot, KeyPress(.escape))
        await press(pilot, KeyPress(":"))
        pilot.type("save x")
        await press(pilot, KeyPress(.enter))
        #expect(
            pilot.screen.contains("`save` belongs to the New todo form: type `new` on the Todo list first."))
        await press(pilot, KeyPress(":"))
        pilot.type("fav")
        await press(pilot, KeyPress(.enter))
        #expect(pilot.screen.contains("`fav` belongs to the Profile tab: type `tab profile`."))
        router.interactable.deactivate()
    }

    @Test("the New todo form and the rename sheet show the cursor in their field before any key is typed")
    func cursorInTheFieldThatOpens() async throws {
        let app = try InMemoryApp(titles: ["buy milk", "walk the dog"])
        let (window, _, router) = await app.launch(size: Size(width: 80, height: 24))
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 24))
        #expect(pilot.shownCursor == nil, "the list has no cursor")
        // Where the cursor belongs: `offset` cells after the start of `text` on the screen.
        func cursor(after text: String, _ offset: Int) throws -> Canvas.Position {
            let start = try #require(pilot.terminal.screen.position(of: text), "\(pilot.screen)")
            return Canvas.Position(x: start.x + offset, y: start.y)
        }
        await press(pilot, KeyPress("n"))
        #expect(pilot.shownCursor == (try cursor(after: "[What needs doing", 1)), "the New todo form")
        await press(pilot, KeyPress(.escape))
        #expect(pilot.shownCursor == nil, "back on the list")
        await press(pilot, KeyPress(.enter))
        #expect(pilot.shownCursor == (try cursor(after: "[buy milk", 9)), "the rename sheet, by Enter")
        await press(pilot, KeyPress(.escape))
        let rows = pilot.screen.split(separator: "\n", omittingEmptySubsequences: false)
        let dogRow = try #require(rows.firstIndex { $0.contains("walk the dog") })
        pilot.click(x: 10, y: dogRow)
        #expect(pilot.shownCursor == (try cursor(after: "[walk the dog", 13)), "the rename sheet, by a click")
        router.interactable.deactivate()
    }

    @Test(
        "the help, the prompt, the rename sheet and the tree fit the screen: golden screens at 80×24 and 40×12"
    )
    func overlays() async throws {
        for (width, height) in [(80, 24), (40, 12)] {
            let app = try InMemoryApp(titles: ["buy milk", "walk the dog", "call the vet"])
            let size = Size(width: Double(width), height: Double(height))
            let (window, _, router) = await app.launch(size: size)
            let pilot = TerminalPilot(window: window, size: size)
            await press(pilot, KeyPress("?"))
            assertSnapshot(pilot.screen + "\n", named: "help-\(width)x\(height)")
            if width == 80 {
                // Every key of a command that has several, not only the first.
                for forms in ["Space/x, done N", "d/Del, delete N", "Alt-1/Alt-2, tab NAME", "?/F1, help"] {
                    #expect(pilot.screen.contains(forms), "\(forms)")
                }
            }
            // The help covers the screen cleanly: every row is the box's, edge to edge, with
            // nothing of the list under it showing at the sides.
            let rows = pilot.screen.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows.count == height)
            for row in rows {
                #expect(row.count == width, "a full row: \(row)")
                #expect("╭│╰".contains(row.first ?? " ") && "╮│╯".contains(row.last ?? " "), "\(row)")
            }
            await press(pilot, KeyPress(.escape), KeyPress(":"))
            pilot.type("edit 2 walk")
            assertSnapshot(pilot.screen + "\n", named: "prompt-\(width)x\(height)")
            await press(pilot, KeyPress(.escape), KeyPress(.down), KeyPress(.enter))
            assertSnapshot(pilot.screen + "\n", named: "rename-\(width)x\(height)")
            await press(pilot, KeyPress(.escape), KeyPress(.tab))
            assertSnapshot(pilot.screen + "\n", named: "profile-\(width)x\(height)")
            for row in pilot.screen.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(row.count <= width)
            }
            #expect(pilot.screen.split(separator: "\n", omittingEmptySubsequences: false).count <= height)
            router.interactable.deactivate()
        }
    }

    @Test("a click selects a row and a tab; the photo is drawn as coloured half blocks and redrawn on resize")
    func mouseAndPhoto() async throws {
        let app = try InMemoryApp(titles: ["buy milk", "walk the dog"])
        let (window, _, router) = await app.launch(size: Size(width: 80, height: 24))
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 24))
        let rows = pilot.screen.split(separator: "\n", omittingEmptySubsequences: false)
        let dogRow = try #require(rows.firstIndex { $0.contains("walk the dog") })
        pilot.click(x: 10, y: dogRow)
        #expect(pilot.screen.contains("Rename"), "a click on a row opens it, as Enter does")
        await press(pilot, KeyPress(.escape))
        let lines = pilot.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tabRow = try #require(lines.lastIndex { $0.contains("2 Profile") })
        let tabTitle = try #require(lines[tabRow].range(of: "2 Profile"))
        let column = lines[tabRow].distance(from: lines[tabRow].startIndex, to: tabTitle.lowerBound)
        // The photo is asked for when the Profile screen comes on: the click's work is awaited.
        await SentActions.during { pilot.click(x: column + 1, y: tabRow) }.reduced()
        pilot.redraw()
        #expect(pilot.screen.contains("Your dog: tabby · 451×300"))
        let blocks = pilot.screen.filter { $0 == "▀" || $0 == "▄" }.count
        #expect(blocks > 300, "the photo is image cells, not text: \(blocks)")
        let screen = pilot.terminal.screen
        var coloured = 0
        for y in 0..<24 {
            for x in 0..<80 where screen[x, y].character == "▀" {
                if case .rgb = screen[x, y].style.foreground { coloured += 1 }
            }
        }
        #expect(coloured > 300, "true colour for each half block: \(coloured)")
        pilot.resize(to: Size(width: 120, height: 40))
        let larger = pilot.screen.filter { $0 == "▀" || $0 == "▄" }.count
        #expect(larger > blocks * 2, "redrawn larger: \(larger) against \(blocks)")
        pilot.resize(to: Size(width: 60, height: 20))
        for row in pilot.screen.split(separator: "\n") { #expect(row.count <= 60) }
        router.interactable.deactivate()
    }
}
