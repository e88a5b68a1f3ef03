/// Where ``ScreenPreferences`` are kept between launches.
public protocol ScreenPreferencesRepository: Sendable {
    /// The saved preferences, or the defaults when none were saved.
    func loadPreferences() async throws(RepositoryError) -> ScreenPreferences
    /// Replaces the saved preferences.
    func savePreferences(_ preferences: ScreenPreferences) async throws(RepositoryError)
}

extension ScreenPreferencesRepository {
    /// Loads the preferences, changes them with `change` and saves them.
    public func updatePreferences(_ change: @Sendable (inout ScreenPreferences) -> Void)
        async throws(RepositoryError)
    {
        var preferences = try await loadPreferences()
        change(&preferences)
        try await savePreferences(preferences)
    }
}
