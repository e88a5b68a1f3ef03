import Domain
import DomainTesting
import Reactor
import Testing

@testable import Profile

/// The photo request belongs to the interactor, not to the reactor's queue: it holds up no
/// other command, a newer one replaces it, deactivation ends it, and a request given up says
/// nothing. Each request hangs on a ``HeldPhotoRequest`` until the test lets it go.
extension ProfileTests {
    @Test("a name typed while a photo request hangs is saved and shown at once", .timeLimit(.minutes(10)))
    func nameWhileThePhotoHangs() async throws {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a")), .success(dogPhoto("b"))])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        let held = dependency.photos.holdNextRequest()
        let refresh = SentActions.during { interactor.didTapRefresh() }
        await held.arrival()

        await acting { interactor.didChangeName("Grace") }
        #expect(presenter.states.last?.profile.name == "Grace")
        #expect(presenter.states.last?.isLoading == true, "the photo is still on its way")
        #expect(presenter.lastNotice?.text == "Name saved.")
        #expect(try await dependency.store.loadProfile().name == "Grace")
        #expect(!refresh.isReduced, "the refresh's command still waits for its photo")

        held.release()
        await refresh.reduced()
        #expect(presenter.states.last?.photo?.id == "b", "the refresh's frame shows what it got")
        #expect(presenter.states.last?.isLoading == false)
        #expect(presenter.states.last?.profile.name == "Grace")
        interactor.deactivate()
    }

    @Test("a second refresh cancels the first, whose late answer never shows", .timeLimit(.minutes(10)))
    func newerRefreshReplacesTheFirst() async throws {
        let dependency = ProfileDependencyMock(answers: [
            .success(dogPhoto("a")), .success(dogPhoto("b")), .success(dogPhoto("c")),
        ])
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { activateOnScreen(interactor) }
        // A transport that answers anyway: only the interactor can keep "b" off the screen.
        let held = dependency.photos.holdNextRequest(answeringWhenCancelled: true)
        let first = SentActions.during { interactor.didTapRefresh() }
        await held.arrival()
        let firstFetch = try #require(interactor.photoFetch)

        await acting { interactor.didTapRefresh() }
        #expect(held.wasCancelled)
        #expect(presenter.states.last?.photo?.id == "c")
        await first.reduced()  // a cancelled fetch is awaited by no one

        held.release()
        await firstFetch.value
        // Queued behind anything the late answer could have sent.
        await acting { interactor.didChangeBio("after the late answer") }
        #expect(!presenter.states.contains { $0.photo?.id == "b" }, "the first's late answer showed")
        #expect(presenter.states.last?.photo?.id == "c")
        #expect(presenter.states.last?.isLoading == false)
        #expect(dependency.photos.requestCount == 3)
        interactor.deactivate()
    }

    @Test(
        "deactivating the interactor cancels the fetch; the screen stops loading and says nothing",
        .timeLimit(.minutes(10)))
    func deactivationCancelsTheFetch() async throws {
        let dependency = ProfileDependencyMock(answers: [.success(dogPhoto("a"))])
        let held = dependency.photos.holdNextRequest()
        let (interactor, presenter) = makeInteractor(dependency)
        await acting { interactor.activate() }
        let appeared = SentActions.during { interactor.didAppear() }
        await held.arrival()
        let fetch = try #require(interactor.photoFetch)
        #expect(interactor.reactor.currentState.isLoading)

        await acting { interactor.deactivate() }
        await held.end()
        #expect(held.wasCancelled, "the request was not cancelled")
        await appeared.reduced()
        await fetch.value
        // Queued behind anything the cancelled fetch could have sent (the transport's
        // "The request was cancelled.").
        await interactor.reactor.send(.photoAbandoned).reduced()
        let state = interactor.reactor.currentState
        #expect(!state.isLoading, "Loading… forever")
        #expect(state.photoFailure == nil)
        #expect(state.notice.value == nil, "a cancelled fetch said \(String(describing: state.notice.value))")
        #expect(!presenter.posted.contains { $0?.kind == .failure })
        #expect(interactor.photoFetch == nil)
    }
}
