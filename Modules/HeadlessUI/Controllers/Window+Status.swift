/// The status line's posts: each controller's latest, in the order they were made. The window
/// owns the line and decides what it shows; screens only post to it, so no screen needs to know
/// what another showed, nor keep what it showed itself.
struct StatusPosts {
    /// One controller's latest post.
    struct Post {
        weak var source: ViewController?
        /// `nil` clears the line while this is the post shown.
        var message: StatusMessage?
        /// When it was made, or when its source came on screen if it was made off screen.
        var order: Int
        /// Made while its source was off screen: it counts once the source comes on.
        var isWaiting: Bool
    }

    private var posts: [ObjectIdentifier: Post] = [:]
    private var made = 0

    /// Keeps `message` as `source`'s post, the newest; it waits when `source` is off screen.
    mutating func post(_ message: StatusMessage?, from source: ViewController, onScreen: Bool) {
        made += 1
        posts[ObjectIdentifier(source)] = Post(
            source: source, message: message, order: made, isWaiting: !onScreen)
    }

    /// `source` came on screen: a post it made while off screen becomes the newest. Returns
    /// whether one did.
    mutating func sourceAppeared(_ source: ViewController) -> Bool {
        let key = ObjectIdentifier(source)
        guard posts[key]?.isWaiting == true else { return false }
        made += 1
        posts[key]?.order = made
        posts[key]?.isWaiting = false
        return true
    }

    /// The message of the newest post whose source is on screen in `window`.
    @MainActor
    func shown(in window: Window) -> StatusMessage? {
        var newest: Post?
        for post in posts.values where !post.isWaiting && post.order > (newest?.order ?? 0) {
            guard let source = post.source, source.isOnScreen(in: window) else { continue }
            newest = post
        }
        return newest?.message
    }
}

extension Window {
    /// Posts `message` to the status line from `source`, a controller of this window's; `nil`
    /// clears the line. The line shows the newest post of a controller that is on screen: a
    /// screen's message goes when another posts after it, or while it is off screen, and a
    /// post made while its controller is off screen (a tab not shown) waits until it comes on,
    /// then is the newest. So the same sentence posted twice shows twice, and a screen never
    /// clears another's message. Asks for a frame (`View.setNeedsDisplay()`).
    public func post(_ message: StatusMessage?, from source: ViewController) {
        statusPosts.post(message, from: source, onScreen: source.isOnScreen(in: self))
        setNeedsDisplay()
    }

    /// `controller` came on screen: what it posted meanwhile shows now.
    func controllerDidAppear(_ controller: ViewController) {
        if statusPosts.sourceAppeared(controller) { setNeedsDisplay() }
    }
}

extension ViewController {
    /// Posts `message` to the status line of the window this controller is shown in, or is
    /// kept for (a tab not selected, whose view is out of the window): `window.post(message,
    /// from: self)`. Does nothing for a controller in no window's tree.
    public func post(_ message: StatusMessage?) {
        hostWindow?.post(message, from: self)
    }

    /// The window this controller's view is in, or the one of the controller above it.
    var hostWindow: Window? {
        window ?? parent?.hostWindow ?? presentingViewController?.hostWindow
    }

    /// Whether this controller is on screen in `window`: appearing or appeared there.
    func isOnScreen(in window: Window) -> Bool {
        (appearanceState == .appeared || appearanceState == .appearing) && self.window === window
    }
}
