import And
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private final class Box: AndCompatible {
    var width = 0
    var height = 0
}

private struct Point: AndCompatible, Equatable {
    var x = 0
    var y = 0
}

private struct Invalid: Error, Equatable {}

@Suite("and { } on reference types")
struct AndOnReferenceTypesTests {
    @Test("returns the very instance it configured")
    func returnsSameInstance() {
        let box = Box()
        let configured = box.and { $0.width = 3 }
        #expect(configured === box)
        #expect(box.width == 3)
    }

    @Test("chains, applying blocks in order")
    func chains() {
        var order: [String] = []
        let box = Box()
            .and {
                order.append("first")
                $0.width = 1
            }
            .and {
                order.append("second")
                $0.width *= 10
                $0.height = 2
            }
        #expect(order == ["first", "second"])
        #expect(box.width == 10)
        #expect(box.height == 2)
    }

    @Test("rethrows and leaves earlier changes in place")
    func propagatesErrors() {
        let box = Box()
        #expect(throws: Invalid()) {
            try box.and {
                $0.width = 5
                throw Invalid()
            }
        }
        #expect(box.width == 5)
    }

    @Test("configures Foundation classes through NSObject and the encoders")
    func foundationClasses() throws {
        let formatter = DateFormatter().and {
            $0.dateFormat = "yyyy-MM-dd"
            $0.timeZone = TimeZone(identifier: "UTC")
        }
        #expect(formatter.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01")

        let encoder = JSONEncoder().and { $0.outputFormatting = [.sortedKeys] }
        let json = try encoder.encode(["b": 1, "a": 2])
        #expect(String(decoding: json, as: UTF8.self) == #"{"a":2,"b":1}"#)

        let decoder = JSONDecoder().and { $0.keyDecodingStrategy = .convertFromSnakeCase }
        struct Payload: Decodable { var someValue: Int }
        #expect(try decoder.decode(Payload.self, from: Data(#"{"some_value":7}"#.utf8)).someValue == 7)
    }
}

@Suite("with { } on value types")
struct WithOnValueTypesTests {
    @Test("returns a changed copy and leaves the original alone")
    func copies() {
        let original = Point(x: 1, y: 1)
        let moved = original.with { $0.x = 9 }
        #expect(moved == Point(x: 9, y: 1))
        #expect(original == Point(x: 1, y: 1))
    }

    @Test("chains copies")
    func chains() {
        let point = Point().with { $0.x = 1 }.with { $0.y = $0.x + 1 }
        #expect(point == Point(x: 1, y: 2))
    }

    @Test("rethrows without producing a value")
    func propagatesErrors() {
        let original = Point()
        #expect(throws: Invalid()) {
            _ = try original.with { _ in throw Invalid() }
        }
        #expect(original == Point())
    }

    @Test("on a reference type, changes the shared instance, as Then does")
    func onReferenceType() {
        let box = Box()
        let same = box.with { $0.width = 4 }
        #expect(same === box)
        #expect(box.width == 4)
    }

    @Test("builds URLRequest, URLComponents and collections")
    func foundationValues() throws {
        let url = try #require(URL(string: "https://example.com/api"))
        let base = URLRequest(url: url)
        let post = base.with {
            $0.httpMethod = "POST"
            $0.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        #expect(post.httpMethod == "POST")
        #expect(post.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(base.httpMethod == "GET")
        #expect(base.value(forHTTPHeaderField: "Content-Type") == nil)

        let components = URLComponents().with {
            $0.scheme = "https"
            $0.host = "dog.ceo"
            $0.path = "/api/breeds/image/random"
        }
        #expect(components.url?.absoluteString == "https://dog.ceo/api/breeds/image/random")

        #expect([1, 2].with { $0.append(3) } == [1, 2, 3])
        #expect(["a": 1].with { $0["b"] = 2 } == ["a": 1, "b": 2])
        #expect(Set([1]).with { $0.insert(2) } == Set([1, 2]))
    }
}

@Suite("do { }")
struct DoTests {
    @Test("runs the block once with the receiver")
    func runsBlock() {
        var seen: [Point] = []
        Point(x: 2, y: 3).do { seen.append($0) }
        #expect(seen == [Point(x: 2, y: 3)])
    }

    @Test("rethrows")
    func propagatesErrors() {
        #expect(throws: Invalid()) {
            try Box().do { _ in throw Invalid() }
        }
    }
}
