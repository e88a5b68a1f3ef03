import Synchronization

/// Todos kept in memory only: for previews, tests and benchmarks. A failure can be set to see
/// how screens report a store that cannot be read or written.
public final class InMemoryTodoRepository: TodoRepository {
    private struct Contents {
        var todos: [Todo]
        var saves = 0
        var loadFailure: RepositoryError?
        var saveFailure: RepositoryError?
    }

    private let contents: Mutex<Contents>

    /// A repository holding `todos`.
    public init(_ todos: [Todo] = [], loadFailure: RepositoryError? = nil) {
        contents = Mutex(Contents(todos: todos, loadFailure: loadFailure))
    }

    /// What was saved last.
    public var savedTodos: [Todo] { contents.withLock { $0.todos } }
    /// How many saves succeeded.
    public var saveCount: Int { contents.withLock { $0.saves } }

    /// Makes every later save fail with `failure`, or succeed again with `nil`.
    public func failSaves(with failure: RepositoryError?) {
        contents.withLock { $0.saveFailure = failure }
    }

    /// The todos, or the load failure.
    public func loadTodos() throws(RepositoryError) -> [Todo] {
        let (todos, failure) = contents.withLock { ($0.todos, $0.loadFailure) }
        if let failure { throw failure }
        return todos
    }

    /// Keeps `todos`, or throws the save failure.
    public func record(_ change: TodoChange, todos: [Todo]) throws(RepositoryError) {
        let failure: RepositoryError? = contents.withLock { contents in
            if let failure = contents.saveFailure { return failure }
            contents.todos = todos
            contents.saves += 1
            return nil
        }
        if let failure { throw failure }
    }
}

/// A profile and favourites kept in memory only: for previews, tests and benchmarks.
public final class InMemoryProfileStore: ProfileRepository, FavoritePhotoRepository {
    private let contents: Mutex<(profile: Profile, favorites: [PetPhoto], saveFailure: RepositoryError?)>

    /// A store holding `profile` and `favorites`.
    public init(profile: Profile = Profile(), favorites: [PetPhoto] = []) {
        contents = Mutex((profile, favorites, nil))
    }

    /// Makes every later save fail with `failure`, or succeed again with `nil`.
    public func failSaves(with failure: RepositoryError?) {
        contents.withLock { $0.saveFailure = failure }
    }

    /// The profile.
    public func loadProfile() throws(RepositoryError) -> Profile { contents.withLock { $0.profile } }

    /// Keeps `profile`, or throws the save failure.
    public func saveProfile(_ profile: Profile) throws(RepositoryError) {
        try save { $0.profile = profile }
    }

    /// The favourites.
    public func loadFavorites() throws(RepositoryError) -> [PetPhoto] { contents.withLock { $0.favorites } }

    /// Keeps `photos`, or throws the save failure.
    public func saveFavorites(_ photos: [PetPhoto]) throws(RepositoryError) {
        try save { $0.favorites = photos }
    }

    private func save(
        _ change: (inout (profile: Profile, favorites: [PetPhoto], saveFailure: RepositoryError?)) -> Void
    ) throws(RepositoryError) {
        let failure: RepositoryError? = contents.withLock { contents in
            if let failure = contents.saveFailure { return failure }
            change(&contents)
            return nil
        }
        if let failure { throw failure }
    }
}

/// Pet photos from a list of answers, in turn (the last one repeats): for previews, tests and
/// benchmarks.
public final class InMemoryPetPhotoRepository: PetPhotoRepository {
    /// Which animal.
    public let pet: Pet
    private let answers: Mutex<(list: [Result<PetPhoto, PetPhotoError>], next: Int, requests: Int)>

    /// A repository answering with `answers` in turn.
    public init(pet: Pet, answers: [Result<PetPhoto, PetPhotoError>]) {
        self.pet = pet
        self.answers = Mutex((answers, 0, 0))
    }

    /// How many photos were asked for.
    public var requestCount: Int { answers.withLock { $0.requests } }

    /// The next answer.
    public func randomPhoto() async throws(PetPhotoError) -> PetPhoto {
        let answer: Result<PetPhoto, PetPhotoError> = answers.withLock { state in
            state.requests += 1
            guard !state.list.isEmpty else { return .failure(.offline("no answers")) }
            let answer = state.list[min(state.next, state.list.count - 1)]
            state.next += 1
            return answer
        }
        return try answer.get()
    }
}
