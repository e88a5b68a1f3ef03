import Domain
import Foundation
import HeadlessUI
import Images
import Layout
import RIBs
import Reactor
import Root
import TerminalCore
import TerminalRuntime
import TodoAppTesting

/// The app's screens in this process, as `bench app` measures a key press and a photo: the Root
/// RIB over the stored todos (the same files the app keeps), in a window driven by
/// ``TerminalApplication`` whose frames go to a byte sink instead of a terminal.
@MainActor
final class AppScreens {
    let window = Window(size: Size(width: 80, height: 24))
    let application: TerminalApplication
    private let dependency: StoredAppDependency
    private var router: (any LaunchRouting)?

    /// The screens over the todos in `folder`, launched and drawn once.
    init(folder: URL) async throws {
        dependency = try StoredAppDependency(folder: folder, petPhotoRepository: NoPhotos())
        application = TerminalApplication(window: window, capabilities: TerminalCapabilities()) { _ in }
        let router = RootBuilder(dependency: dependency).build()
        self.router = router
        await SentActions.during { router.launch(from: window) }.reduced()
        application.redrawAll()
    }

    /// One key press: delivered and drawn, then its reactor work awaited, which draws the frame
    /// that shows it (the screen asks for it with `setNeedsDisplay()`, and an application with no
    /// run loop draws at once).
    func press(_ key: KeyPress) async {
        await SentActions.during { application.handle(.key(key)) }.reduced()
    }

    /// Takes the screens off the window, then deactivates the tree, as a RIB's screens leave
    /// before its interactor stops (else the leak detector reports them as still on screen).
    func close() {
        window.rootViewController = nil
        router?.interactable.deactivate()
    }

    /// The photo API, which the key benchmark never reaches.
    private struct NoPhotos: PetPhotoRepository {
        var pet: Pet { .dog }
        func randomPhoto() async throws(PetPhotoError) -> PetPhoto { throw .offline("benchmark") }
        func imageData(for photo: PetPhoto) async throws(PetPhotoError) -> Data {
            throw .offline("benchmark")
        }
    }
}

/// The photo's last step, from its bytes to the frame: decoding (scaled while decoding, as the
/// Profile screen asks) and drawing it in an 80×24 window's image view.
@MainActor
enum PhotoDrawing {
    /// Decodes `data` as the app does and draws one frame with it; `scaled: false` decodes every
    /// pixel first, the peer.
    static func draw(_ data: Data, scaled: Bool) throws {
        let bitmap = try Bitmap(data: data, minimumSize: scaled ? (width: 320, height: 200) : nil)
        let window = Window(size: Size(width: 80, height: 24))
        let controller = ViewController()
        let imageView = ImageView()
        imageView.bitmap = bitmap
        imageView.caption = "Your cat"
        controller.view.addSubview(imageView)
        _ = imageView.pinEdges(to: controller.view)
        window.rootViewController = controller
        window.makeKeyAndVisible()
        _ = window.render()
    }
}
