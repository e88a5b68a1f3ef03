import Foundation

/// The animal a flavor of the app shows.
public enum Pet: String, Codable, Sendable, CaseIterable {
    /// The Dog flavor, over the Dog CEO API.
    case dog
    /// The Cat flavor, over The Cat API.
    case cat
}

/// A photo of a pet, as an API describes it.
public struct PetPhoto: Identifiable, Hashable, Codable, Sendable {
    /// The API's id, or the image URL where the API has none.
    public var id: String
    /// The animal shown, and so the flavor whose API answered.
    public var pet: Pet
    /// The image's absolute address.
    public var url: URL
    /// The breed, when the API says.
    public var breed: String?
    /// The image's size in pixels, when the API says.
    public var width: Int?
    /// The image's size in pixels, when the API says.
    public var height: Int?

    /// A photo as an API described it; what the API did not say stays `nil`.
    public init(id: String, pet: Pet, url: URL, breed: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.pet = pet
        self.url = url
        self.breed = breed
        self.width = width
        self.height = height
    }

    /// `640×480`, or `nil` when either side is unknown.
    public var sizeDescription: String? {
        guard let width, let height else { return nil }
        return "\(width)×\(height)"
    }
}
