/// Where the profile is kept.
public protocol ProfileRepository: Sendable {
    /// The saved profile, or an empty one.
    func loadProfile() async throws(RepositoryError) -> Profile
    /// Replaces the stored profile with `profile`.
    func saveProfile(_ profile: Profile) async throws(RepositoryError)
}
