import DeclarativeUI
import HeadlessUI
import HeadlessUITesting
import Layout
import Observation
import TerminalCore
import Testing

struct Counter: Element {
    @State var count = 0

    var body: some Element {
        VStack(spacing: 1) {
            Text("Tapped \(count) times").bold()
            HStack {
                Button("Tap") { count += 1 }
                Button("Reset") { count = 0 }.disabled(count == 0)
                Spacer()
                Text("카운터")
            }
            if count >= 3 {
                Text("That is a lot of taps.")
            }
            Spacer()
            Divider()
        }
        .padding(EdgeInsets(top: 0, left: 1, bottom: 0, right: 1))
        .border(.rounded, title: "Counter")
        .foregroundStyle(.cyan)
    }
}

/// A parent whose body makes a ``Counter`` anew on every evaluation.
struct Parent: Element {
    var banner = "first"
    var body: some Element {
        VStack {
            Text(banner)
            Counter()
        }
    }
}

@Observable @MainActor
final class ProfileModel {
    var name = "Ada"
}

struct ProfileCard: Element {
    let model: ProfileModel
    var body: some Element {
        Text("Name: \(model.name)").frame(width: 20, height: 1)
    }
}

@MainActor
@Suite("DeclarativeUI: elements build HeadlessUI views and state re-renders them")
struct DeclarativeUITests {
    private func host<Content: Element>(_ element: Content, size: Size = Size(width: 40, height: 12))
        -> (Window, HostingController<Content>)
    {
        let controller = HostingController(rootElement: element)
        let window = Window(size: size)
        window.rootViewController = controller
        window.makeKeyAndVisible()
        return (window, controller)
    }

    private func button(_ title: String, in view: View) -> HeadlessUI.Button? {
        if let button = view as? HeadlessUI.Button, button.title == title { return button }
        return view.subviews.lazy.compactMap { self.button(title, in: $0) }.first
    }

    private func labels(in view: View) -> [Label] {
        ((view as? Label).map { [$0] } ?? []) + view.subviews.flatMap(labels(in:))
    }

    @Test func aScreenRendersAsItsElementsDescribe() {
        let (window, _) = host(Counter())
        assertSnapshot(window.render(), named: "counter-40x12")
    }

    @Test func changingStateReRendersAndUpdatesViewsInPlace() throws {
        let (window, controller) = host(Counter())
        _ = window.render()
        let title = try #require(labels(in: window).first { $0.text.hasPrefix("Tapped") })
        let tap = try #require(button("Tap", in: window))
        #expect(button("Reset", in: window)?.isEnabled == false)
        tap.tap()
        tap.tap()
        let lines = window.render().lines
        #expect(lines[1] == "│ Tapped 2 times                       │")
        #expect(title.text == "Tapped 2 times")  // the same label, updated
        #expect(button("Tap", in: window) === tap)
        #expect(button("Reset", in: window)?.isEnabled == true)
        #expect(controller.renderCount == 2)  // both taps, one re-render
    }

    @Test func aBranchThatAppearsAddsItsViewAndGoesAwayAgain() throws {
        let (window, _) = host(Counter())
        _ = window.render()
        let tap = try #require(button("Tap", in: window))
        for _ in 0..<3 { tap.tap() }
        #expect(window.render().lines.contains { $0.contains("That is a lot of taps.") })
        try #require(button("Reset", in: window)).tap()
        #expect(!window.render().lines.contains { $0.contains("That is a lot of taps.") })
    }

    @Test func renderingWithoutChangesDoesNotEvaluateTheBodyAgain() {
        let (window, controller) = host(Counter())
        _ = window.render()
        _ = window.render()
        #expect(controller.renderCount == 1)
    }

    @Test func stateKeepsItsValueWhenTheElementIsMadeAgainWithAnotherInitialValue() throws {
        let (window, controller) = host(Counter())
        _ = window.render()
        try #require(button("Tap", in: window)).tap()
        controller.rootElement = Counter(count: 10)  // as in SwiftUI, the initial value is ignored now
        #expect(window.render().lines[1].contains("Tapped 1 times"))
    }

    @Test func aChildElementMadeAgainKeepsItsState() throws {
        let (window, controller) = host(Parent())
        _ = window.render()
        try #require(button("Tap", in: window)).tap()
        controller.rootElement = Parent(banner: "second")
        let lines = window.render().lines
        #expect(lines[0] == "second")
        #expect(lines.contains { $0.contains("Tapped 1 times") })
    }

    @Test func foregroundStyleColoursTheTextInside() throws {
        let (window, _) = host(Counter())
        _ = window.render()
        let title = try #require(labels(in: window).first { $0.text.hasPrefix("Tapped") })
        #expect(title.textStyle == TextStyle(foreground: .cyan, isBold: true))
    }

    @Test func anObservableModelChangeReRendersOnTheNextFrame() async throws {
        let model = ProfileModel()
        let (window, _) = host(ProfileCard(model: model))
        #expect(window.render().lines[0] == "Name: Ada")
        model.name = "Grace"
        // Observation reports the change through a main-actor task.
        for _ in 0..<100 where !window.render().lines[0].hasSuffix("Grace") { await Task.yield() }
        #expect(window.render().lines[0] == "Name: Grace")
    }

    @Test func aListOfTenThousandItemsMakesOnlyTheVisibleRows() throws {
        struct Numbers: Element {
            var body: some Element {
                List(Array(0..<10_000)) { number in Text("Number \(number)") }
            }
        }
        let (window, _) = host(Numbers(), size: Size(width: 30, height: 6))
        let lines = window.render().lines
        #expect(lines[0] == " Number 0                    ┃")
        #expect(lines[5] == " Number 5                    │")
        #expect(labels(in: window).count == 6 * 3)  // each cell: its row's text and two unused labels
    }
}
