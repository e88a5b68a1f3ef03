/// Where ``ScreenPreferences`` are kept between launches.
public protocol ScreenPreferencesRepository: Sendable {
    /// The saved preferences, or the defaults when none were saved.
    func loadPreferences() throws(RepositoryError) -> ScreenPreferences
    /// Replaces the saved preferences.
    func savePreferences(_ preferences: ScreenPreferences) throws(RepositoryError)
}

extension ScreenPreferencesRepository {
    /// Loads the preferences, changes them with `change` and saves them.
    public func updatePreferences(_ change: (inout ScreenPreferences) -> Void) throws(RepositoryError) {
        var preferences = try loadPreferences()
        change(&preferences)
        try savePreferences(preferences)
    }
}
