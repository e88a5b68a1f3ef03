import HeadlessUI
import Layout
import Testing

/// A controller that handles one command and records what reached it.
@MainActor
final class CommandRecorder: ViewController {
    let handledName: String
    var received: [String] = []

    init(title: String, handles name: String) {
        handledName = name
        super.init()
        self.title = title
    }

    override func handle(_ command: TerminalCommand) -> CommandResult {
        received.append(command.line)
        return command.name == handledName ? .handled : .notHandled
    }
}

@MainActor
@Suite("Commands travel from the controller on screen up to the root")
struct CommandTests {
    @Test("parsing: the name is lowercased, arguments split, text after an index rejoined")
    func parsing() throws {
        let command = try #require(TerminalCommand("  Edit 2   buy  oat milk "))
        #expect(command.name == "edit")
        #expect(command.arguments == ["2", "buy", "oat", "milk"])
        #expect(command.text(after: 1) == "buy oat milk")
        #expect(command.line == "Edit 2 buy oat milk")
        #expect(TerminalCommand(" \t ") == nil)
    }

    @Test("the top of the selected tab's stack gets a command first, then its parents")
    func chain() throws {
        let list = CommandRecorder(title: "Todo", handles: "done")
        let detail = CommandRecorder(title: "Add", handles: "save")
        let navigation = NavigationController(rootViewController: list)
        let profile = CommandRecorder(title: "Profile", handles: "refresh")
        let tabs = TabBarController()
        navigation.tabBarItem.title = "Todo"
        profile.tabBarItem.title = "Profile"
        tabs.viewControllers = [navigation, profile]
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        navigation.pushViewController(detail)

        #expect(tabs.commandResponders.map(\.debugName).count == 3)
        #expect(window.perform(try #require(TerminalCommand("save milk"))) == .handled)
        #expect(detail.received == ["save milk"])
        #expect(window.perform(try #require(TerminalCommand("done 1"))) == .notHandled)
        #expect(list.received.isEmpty, "a controller under the top one is not on screen")

        #expect(window.perform(try #require(TerminalCommand("back"))) == .handled)
        #expect(navigation.topViewController === list)
        #expect(
            window.perform(try #require(TerminalCommand("back")))
                == .failed("There is nothing to go back to."))
        #expect(window.perform(try #require(TerminalCommand("done 1"))) == .handled)

        #expect(window.perform(try #require(TerminalCommand("tab PROFILE"))) == .handled)
        #expect(tabs.selectedViewController === profile)
        #expect(window.perform(try #require(TerminalCommand("refresh"))) == .handled)
        #expect(window.perform(try #require(TerminalCommand("tab 1"))) == .handled)
        #expect(tabs.selectedIndex == 0)
        #expect(
            window.perform(try #require(TerminalCommand("tab cats")))
                == .failed("No tab \"cats\"; the tabs are todo, profile."))
    }

    @Test("a presented controller is on top of the chain")
    func presented() throws {
        let root = CommandRecorder(title: "Root", handles: "root")
        let sheet = CommandRecorder(title: "Sheet", handles: "sheet")
        let window = Window(size: Size(width: 20, height: 5))
        window.rootViewController = root
        window.makeKeyAndVisible()
        root.present(sheet)
        #expect(window.perform(try #require(TerminalCommand("root"))) == .handled)
        #expect(sheet.received == ["root"])
        #expect(root.received == ["root"])
    }
}
