/// Where ``ScreenPreferences`` are kept between launches. Several screens change them (Root the
/// tab, Todo the filter), each from its own reactor, so a change is one ``updatePreferences(_:)``.
public protocol ScreenPreferencesRepository: Sendable {
    /// The saved preferences, or the defaults when none were saved.
    nonisolated(nonsending) func loadPreferences() async throws(RepositoryError) -> ScreenPreferences
    /// Replaces the saved preferences.
    nonisolated(nonsending) func savePreferences(_ preferences: ScreenPreferences)
        async throws(RepositoryError)
    /// Loads the preferences, changes them with `change` and saves them, as one step: two
    /// updates made at once (the tab and the filter) both stay.
    nonisolated(nonsending) func updatePreferences(
        _ change: @escaping @Sendable (inout ScreenPreferences) -> Void)
        async throws(RepositoryError)
}

extension ScreenPreferencesRepository {
    /// Loads, changes and saves, with nothing to keep another update from coming between the
    /// load and the save: for repositories whose callers never update at once.
    nonisolated(nonsending) public func updatePreferences(
        _ change: @escaping @Sendable (inout ScreenPreferences) -> Void
    )
        async throws(RepositoryError)
    {
        var preferences = try await loadPreferences()
        change(&preferences)
        try await savePreferences(preferences)
    }
}
