import Domain
import Foundation
import HeadlessUI
import Layout
import RIBs
import RIBsHeadlessUI
import TerminalCore

/// What the screen reports to the interactor.
@MainActor
protocol ProfilePresentableListener: AnyObject {
    /// The screen came on: the first time, the photo is asked for.
    func didAppear()
    func didTapRefresh()
    func didTapFavorite()
    func didChangeName(_ name: String)
    func didChangeBio(_ bio: String)
    /// Show the favourite `steps` places on, going round (the first when not browsing).
    func didStepFavorites(by steps: Int)
    /// Show the favourite at `index` in the list.
    func didSelectFavorite(at index: Int)
    /// Stop browsing: back to the latest photo.
    func didEndBrowsing()
}

/// The person, the flavor's pet photo drawn as large as the screen allows, and the buttons.
/// Written with HeadlessUI's views (``ProfileView`` places them): the photo's ``ImageView`` takes
/// every row between the text and the buttons, so a resize redraws it at the new size.
///
/// Keys: r refresh, f keep or drop as a favourite, v browse the favourites in a list beside the
/// photo (↑/↓ or ←/→, Esc), e edit
/// the name, b edit the bio. Typed: `refresh`, `fav`, `favs`, `name TEXT`, `bio TEXT`.
@MainActor
final class ProfileViewController: ViewController, ProfilePresentable, ProfileViewControllable {
    weak var listener: (any ProfilePresentableListener)?

    let nameLabel = Label()
    let bioLabel = Label()
    let imageView = ImageView()
    let favoritesLabel = Label()
    private lazy var refreshButton = Button(title: "Refresh") { [weak self] in self?.listener?.didTapRefresh()
    }
    private lazy var favoriteButton = Button(title: "☆ Favourite") { [weak self] in
        self?.listener?.didTapFavorite()
    }
    private(set) var state: ProfileState?

    override init() {
        super.init()
        title = "Profile"
        tabBarItem.title = "Profile"
    }

    override func loadView() {
        let profileView = ProfileView(
            name: nameLabel, bio: bioLabel, image: imageView, buttons: [refreshButton, favoriteButton],
            count: favoritesLabel)
        profileView.onSelectFavorite = { [weak self] index in self?.listener?.didSelectFavorite(at: index) }
        view = profileView
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        nameLabel.textStyle = TextStyle(isBold: true)
        favoritesLabel.textStyle = TextStyle(isDim: true)
        if let state { show(state) }
    }

    // MARK: ProfilePresentable

    func present(_ state: ProfileState) {
        self.state = state
        guard isViewLoaded else { return }
        show(state)
        view.setNeedsDisplay()
    }

    /// A notice posted while the screen was off (the profile could not be read at launch) waits
    /// in the window until the screen comes on (`Window.post(_:from:)`).
    func post(_ notice: Notice?) {
        // Notice.Kind and StatusMessage.Kind share their names (TodoTests checks every one).
        post(
            notice.map {
                StatusMessage($0.text, kind: StatusMessage.Kind(rawValue: $0.kind.rawValue) ?? .info)
            })
    }

    /// The first time the screen comes on, the photo is asked for.
    override func viewDidAppear() {
        super.viewDidAppear()
        listener?.didAppear()
    }

    private func show(_ state: ProfileState) {
        nameLabel.text =
            state.profile.name.isEmpty ? "No name yet: press e, or type `name TEXT`" : state.profile.name
        nameLabel.textStyle = TextStyle(
            isBold: !state.profile.name.isEmpty, isDim: state.profile.name.isEmpty)
        bioLabel.text =
            state.profile.bio.isEmpty ? "No bio yet: press b, or type `bio TEXT`" : state.profile.bio
        bioLabel.textStyle = TextStyle(isDim: state.profile.bio.isEmpty)
        imageView.bitmap = state.bitmap
        imageView.caption = Self.caption(for: state)
        imageView.image = nil
        refreshButton.title = state.isLoading ? "Loading…" : "Refresh"
        refreshButton.isEnabled = !state.isLoading
        favoriteButton.title = state.isFavorite ? "★ Favourite" : "☆ Favourite"
        favoriteButton.isEnabled = state.photo != nil
        favoritesLabel.text =
            state.favorites.isEmpty ? "no favourites yet" : "\(state.favorites.count) kept · v browses"
        (view as? ProfileView)?.showFavorites(
            state.browsedFavorite == nil ? [] : state.favorites.map { $0.breed ?? "breed unknown" },
            selected: state.browsedFavorite)
        // The buttons' widths and the caption changed: the row is placed again.
        view.setNeedsLayout()
    }

    /// The photo's caption: who it is and how big; browsing, which favourite; else why there is
    /// no photo.
    static func caption(for state: ProfileState) -> String {
        let pet = state.pet == .dog ? "Your dog" : "Your cat"
        if let index = state.browsedFavorite, state.favorites.indices.contains(index) {
            let photo = state.favorites[index]
            let image = state.bitmap == nil ? (state.imageFailure ?? "loading…") : ""
            return "★ \(index + 1) of \(state.favorites.count): \(photo.breed ?? "breed unknown") \(image)"
                .trimmingCharacters(in: .whitespaces)
        }
        guard let photo = state.photo else {
            if state.isLoading { return "\(pet) is on the way…" }
            return "\(pet) could not be fetched" + (state.photoFailure.map { ": \($0)" } ?? ".")
        }
        var caption = "\(pet): \(photo.breed ?? "breed unknown") · \(photo.sizeDescription ?? "size unknown")"
        if state.bitmap == nil { caption += " · " + (state.imageFailure ?? "drawing…") }
        return caption
    }

    // MARK: Commands

    override var keyCommands: [KeyCommand] {
        var commands = [
            KeyCommand(ProfileCommands.refresh) { [weak self] _ in
                self?.listener?.didTapRefresh()
                return .handled
            },
            KeyCommand(ProfileCommands.favorite) { [weak self] _ in
                self?.listener?.didTapFavorite()
                return .handled
            },
            KeyCommand(ProfileCommands.favorites) { [weak self] _ in
                self?.listener?.didStepFavorites(by: 0)
                return .handled
            },
            KeyCommand(ProfileCommands.name) { [weak self] invocation in
                self?.edit(invocation, field: "name") ?? .handled
            },
            KeyCommand(ProfileCommands.bio) { [weak self] invocation in
                self?.edit(invocation, field: "bio") ?? .handled
            },
        ]
        if state?.browsedFavorite != nil {
            commands += [
                KeyCommand(ProfileCommands.next) { [weak self] _ in
                    self?.listener?.didStepFavorites(by: 1)
                    return .handled
                },
                KeyCommand(ProfileCommands.previous) { [weak self] _ in
                    self?.listener?.didStepFavorites(by: -1)
                    return .handled
                },
                KeyCommand(ProfileCommands.endBrowsing) { [weak self] _ in
                    self?.listener?.didEndBrowsing()
                    return .handled
                },
            ]
        }
        return commands
    }

    /// `name TEXT` sets it; `name` alone is refused rather than erasing it; the key opens a
    /// sheet with the current value.
    private func edit(_ invocation: KeyCommand.Invocation, field: String) -> CommandResult {
        let save: @MainActor (String) -> Void = { [weak self] text in
            if field == "name" {
                self?.listener?.didChangeName(text)
            } else {
                self?.listener?.didChangeBio(text)
            }
        }
        guard let command = invocation.typedCommand else {
            let current = field == "name" ? state?.profile.name : state?.profile.bio
            let sheet = TextEntrySheet(
                title: field == "name" ? "Your name" : "Your bio", text: current ?? "", onSubmit: save)
            // Over everything, from the window's top controller, so that its field has the focus.
            (view.window?.topmostController ?? self).present(sheet)
            return .handled
        }
        let text = command.text()
        guard !text.isEmpty else {
            return .failed(
                "Type the \(field) after `\(field)`, as in `\(field) \(field == "name" ? "Ada" : "Likes walks")`; press \(field == "name" ? "e" : "b") to edit it."
            )
        }
        save(text)
        return .handled
    }
}
