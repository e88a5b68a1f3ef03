import Domain
import DomainTesting
import Foundation
import HeadlessUI
import HeadlessUITesting
import Layout
import RIBs
import Reactor
import TerminalCore
import Testing

@testable import Profile

@MainActor
final class ProfilePresenterMock: ProfilePresentable {
    weak var listener: (any ProfilePresentableListener)?
    var states: [ProfileState] = []
    /// Every notice posted, in order.
    var posted: [Notice?] = []

    /// The notice posted last; `nil` when none was, or the last cleared the line.
    var lastNotice: Notice? { posted.last ?? nil }

    func present(_ state: ProfileState) { states.append(state) }
    func post(_ notice: Notice?) { posted.append(notice) }
}

@MainActor
final class ProfileDependencyMock: ProfileDependency {
    let store = InMemoryProfileStore(profile: Profile(name: "Ada"))
    let photos: InMemoryPetPhotoRepository
    lazy var favoritePhotos = FavoritePhotos(repository: store)
    var profileRepository: any ProfileRepository { store }
    var petPhotoRepository: any PetPhotoRepository { photos }

    init(answers: [Result<PetPhoto, PetPhotoError>]) {
        photos = InMemoryPetPhotoRepository(pet: .dog, answers: answers)
    }
}

@MainActor
final class ProfileListenerMock: ProfileListener {}

func dogPhoto(_ name: String) -> PetPhoto {
    PetPhoto(
        id: name, pet: .dog, url: URL(fileURLWithPath: "/breeds/pug/\(name).jpg"), breed: "pug")
}

@MainActor
@Suite("Profile: the person, the flavor's photo with its failures, and favourites")
struct ProfileTests {
    func makeInteractor(_ dependency: ProfileDependencyMock) -> (ProfileInteractor, ProfilePresenterMock) {
        let presenter = ProfilePresenterMock()
        let reactor = ProfileReactor(
            profiles: dependency.store, photos: dependency.photos, favorites: dependency.favoritePhotos)
        return (
            ProfileInteractor(presenter: presenter, reactor: reactor, photos: dependency.photos), presenter
        )
    }

    /// Runs `body` and returns once the actions it sent are on the screen.
    func acting(_ body: () -> Void) async {
        await SentActions.during(body).reduced()
    }

    /// Activates `interactor` with its screen on, as when the Profile tab is the one shown.
    func activateOnScreen(_ interactor: ProfileInteractor) {
        interactor.activate()
        interactor.didAppear()
    }

    @Test("activation loads the profile but asks for no photo until the screen comes on, and then once")
    func photoWaitsForTheScreen() async {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a")), .success(dogPhoto("b"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { interactor.activate() }
        #expect(presenter.states.last?.profile.name == "Ada")
        #expect(dependency.photos.requestCount == 0, "a photo was asked for while the screen was off")
        await acting { interactor.didAppear() }
        #expect(presenter.states.last?.photo?.id == "a")
        await acting { interactor.didAppear() }
        #expect(dependency.photos.requestCount == 1, "coming back to the screen asks again")
        interactor.deactivate()
    }

    @Test("a screen on before activation gets its photo on activation")
    func screenOnBeforeActivation() async {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a"))])
        let (interactor, presenter) = makeInteractor(dependency)
        interactor.didAppear()
        #expect(dependency.photos.requestCount == 0, "nothing is sent before activation")
        await acting { interactor.activate() }
        #expect(presenter.states.last?.photo?.id == "a")
        interactor.deactivate()
    }

    @Test("activation with the screen on loads the profile and a photo; refresh asks for another")
    func loadAndRefresh() async {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a")), .success(dogPhoto("b"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        #expect(presenter.states.contains { $0.isLoading }, "the screen said it was loading")
        #expect(presenter.states.last?.profile.name == "Ada")
        #expect(presenter.states.last?.photo?.id == "a")
        #expect(presenter.states.last?.isLoading == false)
        await acting { interactor.didTapRefresh() }
        #expect(presenter.states.last?.photo?.id == "b")
        #expect(dependency.photos.requestCount == 2)
        interactor.deactivate()
    }

    @Test("a failed request keeps the last photo and shows the reason")
    func failure() async {
        let dependency = ProfileDependencyMock(answers: [
            .success(dogPhoto("a")), .failure(.http(status: 500, message: nil)), .failure(.timeout),
        ])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        await acting { interactor.didTapRefresh() }
        #expect(presenter.lastNotice?.text == "The API answered 500.")
        #expect(presenter.states.last?.photo?.id == "a")
        await acting { interactor.didTapRefresh() }
        #expect(presenter.lastNotice?.text == "The photo request timed out.")
        interactor.deactivate()
    }

    @Test("fav keeps and drops the photo, persisted; name and bio are saved")
    func favouritesAndProfile() async throws {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        await acting { interactor.didTapFavorite() }
        #expect(presenter.states.last?.isFavorite == true)
        #expect(presenter.states.last?.favoriteCount == 1)
        #expect(try await dependency.store.loadFavorites().map(\.id) == ["a"])
        await acting { interactor.didTapFavorite() }
        #expect(try await dependency.store.loadFavorites().isEmpty)
        await acting {
            interactor.didChangeName("Grace")
            interactor.didChangeBio("compilers")
        }
        #expect(try await dependency.store.loadProfile() == Profile(name: "Grace", bio: "compilers"))
        dependency.store.failSaves(with: .unwritable(reason: "read-only"))
        await acting { interactor.didChangeBio("lost?") }
        #expect(presenter.lastNotice?.text == "Profile not saved: could not write (read-only)")
        #expect(presenter.states.last?.profile.bio == "lost?", "the screen keeps what was typed")
        interactor.deactivate()
    }

    @Test("fav before any photo says there is none yet; a failed favourites save says so")
    func favouriteWithoutPhoto() async {
        let dependency = ProfileDependencyMock(answers: [.failure(.timeout), .success(dogPhoto("a"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        await acting { interactor.didTapFavorite() }
        #expect(
            presenter.lastNotice?.text
                == "There is no photo to keep yet; press r (or type `refresh`).")
        await acting { interactor.didTapRefresh() }
        dependency.store.failSaves(with: .unwritable(reason: "full"))
        await acting { interactor.didTapFavorite() }
        #expect(presenter.lastNotice?.text == "Favourites not saved: could not write (full)")
        #expect(presenter.states.last?.isFavorite == true, "kept in memory, as FavoritePhotos does")
        interactor.deactivate()
    }

    @Test("the builder wires the screen, whose declarative view shows the photo and takes commands")
    func builderAndScreen() async throws {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a"))])
        let router = ProfileBuilder(dependency: dependency).build(withListener: ProfileListenerMock())
        let screen = try #require(router.viewControllable as? ProfileViewController)
        let window = Window(size: Size(width: 60, height: 16))
        window.rootViewController = screen
        window.makeKeyAndVisible()
        await SentActions.during {
            router.interactable.activate()
            router.load()
        }.reduced()
        let text = window.render().lines.joined(separator: "\n")
        #expect(text.contains("Ada"))
        #expect(text.contains("Your dog: pug · size unknown"))
        let name = try #require(TerminalCommand("name Grace Hopper"))
        var result = CommandResult.notHandled
        await SentActions.during { result = window.perform(name) }.reduced()
        #expect(result == .handled)
        #expect(window.render().lines.contains { $0.contains("Grace Hopper") })
        #expect(window.perform(try #require(TerminalCommand("done 1"))) == .notHandled)
        #expect(
            window.perform(try #require(TerminalCommand("name")))
                == .failed("Type the name after `name`, as in `name Ada`; press e to edit it."))
        #expect(
            try await dependency.store.loadProfile().name == "Grace Hopper", "an empty `name` erases nothing")
        router.interactable.deactivate()
    }

    /// A real picture: the sample cat the offline app ships.
    static let chelsea = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Apps/TodoAppCore/Samples/cat-chelsea.png")

    /// The Profile screen in a window of `size`, with the sample cat's photos to answer in turn,
    /// activated: its first photo is drawn.
    func chelseaScreen(size: Size, breeds: [String] = ["tabby"]) async throws -> (
        ProfileViewController, ProfileInteractor, Window
    ) {
        let answers = breeds.enumerated().map { index, breed in
            Result<PetPhoto, PetPhotoError>.success(
                PetPhoto(id: "c\(index)", pet: .cat, url: Self.chelsea, breed: breed, width: 451, height: 300)
            )
        }
        let store = InMemoryProfileStore()
        let photos = InMemoryPetPhotoRepository(
            pet: .cat, answers: answers, images: [Self.chelsea: try Data(contentsOf: Self.chelsea)])
        let reactor = ProfileReactor(
            profiles: store, photos: photos, favorites: FavoritePhotos(repository: store))
        let screen = ProfileViewController()
        let interactor = ProfileInteractor(presenter: screen, reactor: reactor, photos: photos)
        let window = Window(size: size)
        window.rootViewController = screen
        window.makeKeyAndVisible()
        await SentActions.during { interactor.activate() }.reduced()
        return (screen, interactor, window)
    }

    @Test(
        "the photo's bytes are fetched, decoded and drawn in the space left, as half blocks; again after a resize"
    )
    func photoIsDrawn() async throws {
        let (screen, interactor, window) = try await chelseaScreen(size: Size(width: 60, height: 20))
        let bitmap = try #require(screen.imageView.bitmap)
        #expect(bitmap.width >= 320 && bitmap.height >= 200)
        let canvas = window.render()
        let halfBlocks = canvas.lines.joined().filter { $0 == "▀" || $0 == "▄" }.count
        #expect(halfBlocks > 40 * 10, "the picture fills its space with half blocks, not text: \(halfBlocks)")
        #expect(canvas.lines.contains { $0.contains("Your cat: tabby · 451×300") })
        window.resize(to: Size(width: 100, height: 30))
        let larger = window.render().lines.joined().filter { $0 == "▀" || $0 == "▄" }.count
        #expect(larger > halfBlocks * 2, "redrawn at the new size")
        interactor.deactivate()
    }

    @Test(
        "a short or narrow window shows no part of anything: the caption stands in for the photo, buttons are whole or left out"
    )
    func smallWindows() async throws {
        // The Profile tab's space in a 40×12 terminal: the title, tab bar and help bar take the rest.
        let (_, interactor, window) = try await chelseaScreen(size: Size(width: 40, height: 6))
        func lines() -> [String] { window.render().lines }
        func halfBlocks() -> Int { lines().joined().filter { $0 == "▀" || $0 == "▄" }.count }
        #expect(halfBlocks() == 0, "two rows would be a one-row smear")
        #expect(lines().contains { $0.contains("Your cat: tabby · 451×300") })
        #expect(lines().contains { $0.contains("A taller window shows the photo.") })
        func buttonRow() -> String? { lines().first { $0.contains("[ Refresh ]") } }
        #expect(buttonRow() == " [ Refresh ]  [ ☆ Favourite ]", "no count in 9 columns: \(lines())")

        window.resize(to: Size(width: 24, height: 6))
        #expect(buttonRow() == " [ Refresh ]", "the favourite button does not fit whole: \(lines())")
        window.resize(to: Size(width: 10, height: 6))
        #expect(!lines().contains { $0.contains("[") }, "no button fits: \(lines())")

        window.resize(to: Size(width: 44, height: 8))
        #expect(halfBlocks() > 0, "three rows of picture and the caption")
        #expect(!lines().contains { $0.contains("taller window") })
        let row = try #require(buttonRow())
        #expect(row.hasPrefix(" [ Refresh ]  [ ☆ Favourite ]  no favour") && row.hasSuffix("…"), "\(lines())")
        #expect(row.count <= 43, "truncated to the window: \(row)")
        interactor.deactivate()
    }

    @Test("browsing, the favourites are listed beside the photo; ↓/↑ move the mark, and the list scrolls")
    func favouritesList() async throws {
        let breeds = ["tabby", "siamese", "persian", "a very long breed name indeed", "sphynx"]
        let (_, interactor, window) = try await chelseaScreen(
            size: Size(width: 80, height: 8), breeds: breeds)
        for index in breeds.indices {
            if index > 0 { await SentActions.during { interactor.didTapRefresh() }.reduced() }
            await SentActions.during { interactor.didTapFavorite() }.reduced()
        }
        func lines() -> [String] { window.render().lines }
        func press(_ key: KeyPress) async { await SentActions.during { window.send(.key(key)) }.reduced() }
        #expect(!lines().contains { $0.contains("1. tabby") }, "no list until browsing")
        await press(KeyPress("v"))
        // Rows 3 to 6 are the photo's: four favourites in sight, the first marked.
        #expect(lines()[3].hasPrefix(" › 1. tabby"), "\(lines())")
        #expect(lines()[4].hasPrefix("   2. siamese"))
        #expect(lines()[6].hasPrefix("   4. a very long"), "truncated to a third of the width")
        #expect(lines()[6].contains("…"))
        #expect(lines().contains { $0.contains("★ 1 of 5: tabby") })
        #expect(
            lines().joined().contains("▀") || lines().joined().contains("▄"), "the photo, beside the list")
        await press(KeyPress(.down))
        #expect(lines()[4].hasPrefix(" › 2. siamese"), "\(lines())")
        await press(KeyPress(.up))
        await press(KeyPress(.up))
        // Round to the last: the list scrolls to keep it in sight, with no blank row after it.
        #expect(lines()[3].hasPrefix("   2. siamese"), "\(lines())")
        #expect(lines()[6].hasPrefix(" › 5. sphynx"), "\(lines())")
        window.resize(to: Size(width: 40, height: 8))
        #expect(!lines().contains { $0.contains("5. sphynx") }, "too narrow for a list: \(lines())")
        #expect(lines().contains { $0.contains("★ 5 of 5: sphynx") })
        await press(KeyPress(.escape))
        window.resize(to: Size(width: 80, height: 8))
        #expect(!lines().contains { $0.contains("5. sphynx") }, "the list goes with Esc")
        interactor.deactivate()
    }

    @Test("a click on a listed favourite selects it and draws its photo; a click beside the list does not")
    func clickAFavourite() async throws {
        let breeds = ["tabby", "siamese", "persian"]
        let (screen, interactor, window) = try await chelseaScreen(
            size: Size(width: 80, height: 8), breeds: breeds)
        for index in breeds.indices {
            if index > 0 { await SentActions.during { interactor.didTapRefresh() }.reduced() }
            await SentActions.during { interactor.didTapFavorite() }.reduced()
        }
        let pilot = TerminalPilot(window: window, size: Size(width: 80, height: 8))
        func click(x: Int, y: Int) async {
            await SentActions.during { pilot.click(x: x, y: y) }.reduced()
            pilot.redraw(label: "after the click at \(x),\(y)")
        }
        await SentActions.during { pilot.press(KeyPress("v")) }.reduced()
        pilot.redraw()
        let lines = { pilot.screen.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(lines()[3].hasPrefix(" › 1. tabby"), "\(pilot.screen)")
        // Row 5 is the third favourite's: a click on its breed selects it.
        await click(x: 6, y: 5)
        #expect(lines()[5].hasPrefix(" › 3. persian"), "\(pilot.screen)")
        #expect(lines()[3].hasPrefix("   1. tabby"))
        #expect(pilot.screen.contains("★ 3 of 3: persian"))
        #expect(screen.state?.browsedFavorite == 2)
        #expect(screen.imageView.bitmap != nil, "the selected favourite's photo is drawn")
        #expect(pilot.screen.contains("▀") || pilot.screen.contains("▄"), "the photo, as half blocks")
        await click(x: 6, y: 4)
        #expect(lines()[4].hasPrefix(" › 2. siamese"), "\(pilot.screen)")
        // The photo's cells, right of the list, are not the list's.
        await click(x: 60, y: 4)
        #expect(screen.state?.browsedFavorite == 1, "a click on the photo selects nothing")
        interactor.deactivate()
    }

    @Test(
        "favourites are browsable: v shows the first, the arrows go round, Esc goes back to the latest photo")
    func browseFavourites() async throws {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a")), .success(dogPhoto("b"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        await acting { interactor.didTapFavorite() }
        await acting { interactor.didTapRefresh() }
        await acting { interactor.didTapFavorite() }
        #expect(presenter.states.last?.favorites.map(\.id) == ["a", "b"])
        await acting { interactor.didStepFavorites(by: 0) }
        #expect(presenter.states.last?.browsedFavorite == 0)
        #expect(presenter.posted.contains { $0?.text == "Favourite 1 of 2: pug." })
        await acting { interactor.didStepFavorites(by: -1) }
        #expect(presenter.states.last?.browsedFavorite == 1, "going round")
        await acting { interactor.didSelectFavorite(at: 0) }
        #expect(presenter.states.last?.browsedFavorite == 0, "a click picks the favourite by its row")
        // Then the favourite's image is asked for, which this test's repository has not.
        #expect(presenter.posted.suffix(2).first == Notice("Favourite 1 of 2: pug."))
        await acting { interactor.didEndBrowsing() }
        #expect(presenter.states.last?.browsedFavorite == nil)
        #expect(presenter.states.last?.photo?.id == "b")
        interactor.deactivate()
    }
}
