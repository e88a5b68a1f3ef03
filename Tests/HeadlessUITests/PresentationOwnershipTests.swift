import HeadlessUI
import Layout
import Testing

/// A presented controller leaves nothing behind that keeps the window, or the controllers on it,
/// alive: RIBs' leak detector expects a detached RIB's view controller gone within a second.
@MainActor
@Suite("Presentation keeps no window alive")
struct PresentationOwnershipTests {
    @Test(
        "a form sheet (TextEntrySheet), on show or dismissed, and a full-screen controller let the window go",
        arguments: ["sheet on show", "sheet dismissed", "full screen"])
    func windowIsFreed(_ variant: String) {
        weak var weakWindow: Window?
        weak var weakRoot: ViewController?
        weak var weakPresented: ViewController?
        do {
            let window = Window(size: Size(width: 60, height: 16))
            let root = ViewController()
            window.rootViewController = NavigationController(rootViewController: root)
            window.makeKeyAndVisible()
            let presented =
                variant == "full screen"
                ? ViewController() : TextEntrySheet(title: "Rename", text: "milk") { _ in }
            root.present(presented)
            _ = window.render()
            if variant == "sheet dismissed" {
                presented.dismiss()
                _ = window.render()
            }
            weakWindow = window
            weakRoot = root
            weakPresented = presented
        }
        #expect(weakWindow == nil)
        #expect(weakRoot == nil)
        #expect(weakPresented == nil)
    }
}
