import RIBs
import Synchronization
import Testing

protocol ParentDependency: Dependency {
    var greeting: String { get }
}

final class ParentComponent: Component<EmptyDependency>, ParentDependency {
    var greeting: String { "hello" }
}

final class RootDependencyStub: EmptyDependency {}

/// A component whose builder records how many it made.
final class CountingComponent: Component<any ParentDependency> {
    let serial: Int
    init(dependency: any ParentDependency, serial: Int) {
        self.serial = serial
        super.init(dependency: dependency)
    }
}

@MainActor
final class GreetingBuilder: ComponentizedBuilder<CountingComponent, String, String, Int> {
    override func build(with component: CountingComponent, _ name: String) -> String {
        "\(component.dependency.greeting), \(name) #\(component.serial)"
    }
}

@MainActor
final class SimpleGreetingBuilder: SimpleComponentizedBuilder<CountingComponent, String> {
    override func build(with component: CountingComponent) -> String { "#\(component.serial)" }
}

@MainActor
final class StagedBuilder: SimpleMultiStageComponentizedBuilder<CountingComponent, String> {
    override func finalStageBuild(with component: CountingComponent) -> String { "#\(component.serial)" }
}

@MainActor
@Suite("Builders")
struct BuilderTests {
    let parent = ParentComponent(dependency: RootDependencyStub())

    @Test("Builder keeps its dependency")
    func builder() {
        #expect(Builder<any ParentDependency>(dependency: parent).dependency.greeting == "hello")
    }

    @Test("a componentized builder makes a new component per build from the dynamic dependencies")
    func componentized() {
        let parent = self.parent
        let builder = GreetingBuilder { serial in CountingComponent(dependency: parent, serial: serial) }
        let errors = capturingProgrammerErrors {
            #expect(
                builder.build(withDynamicBuildDependency: "Rex", dynamicComponentDependency: 1)
                    == "hello, Rex #1")
            let (component, router): (CountingComponent, String) = builder.build(
                withDynamicBuildDependency: "Tom", dynamicComponentDependency: 2)
            #expect(component.serial == 2)
            #expect(router == "hello, Tom #2")
        }
        #expect(errors.isEmpty)
    }

    @Test("a component builder that returns the previous component is a programmer error")
    func componentReused() {
        let shared = CountingComponent(dependency: parent, serial: 7)
        let builder = SimpleGreetingBuilder { shared }
        let errors = capturingProgrammerErrors {
            _ = builder.build()
            _ = builder.build()
        }
        #expect(errors == [.componentReused(builder: "SimpleGreetingBuilder")])
    }

    @Test("a multi-stage builder shares one component within a pass and makes a new one per pass")
    func multiStage() {
        var made = 0
        let parent = self.parent
        let builder = StagedBuilder {
            made += 1
            return CountingComponent(dependency: parent, serial: made)
        }
        let first = builder.componentForCurrentBuildPass
        #expect(builder.componentForCurrentBuildPass === first)
        #expect(builder.finalStageBuild() == "#1")
        #expect(builder.componentForCurrentBuildPass !== first)
        #expect(builder.finalStageBuild() == "#2")
        #expect(made == 2)
    }

    @Test("a multi-stage builder that returns the previous component is a programmer error")
    func multiStageReused() {
        let shared = CountingComponent(dependency: parent, serial: 1)
        let builder = StagedBuilder { shared }
        let errors = capturingProgrammerErrors {
            _ = builder.finalStageBuild()
            _ = builder.finalStageBuild()
        }
        #expect(errors == [.componentReused(builder: "StagedBuilder")])
    }
}

final class Thing: Sendable {}

final class SharingComponent: Component<EmptyDependency>, @unchecked Sendable {
    let thingFactoryRuns = Mutex(0)
    let optionalFactoryRuns = Mutex(0)

    var thing: Thing {
        shared {
            thingFactoryRuns.withLock { $0 += 1 }
            return Thing()
        }
    }

    var maybeThing: Thing? {
        shared {
            optionalFactoryRuns.withLock { $0 += 1 }
            return nil
        }
    }

    /// A shared factory that reads another shared property.
    var pair: [Thing] { shared { [thing, thing] } }
}

@Suite("Component.shared")
struct ComponentTests {
    @Test("test_shared: one instance per component and property")
    func sharedInstance() {
        let component = SharingComponent(dependency: RootDependencyStub())
        let first = component.thing
        #expect(component.thing === first)
        #expect(component.thing === first)
        #expect(component.thingFactoryRuns.withLock { $0 } == 1)
        #expect(SharingComponent(dependency: RootDependencyStub()).thing !== first)
    }

    @Test("test_shared_optional: a factory that returns nil runs once, and nil is what later reads get")
    func sharedOptional() {
        let component = SharingComponent(dependency: RootDependencyStub())
        #expect(component.maybeThing == nil)
        #expect(component.maybeThing == nil)
        #expect(component.optionalFactoryRuns.withLock { $0 } == 1)
    }

    @Test("lets one shared factory read another")
    func nested() {
        let component = SharingComponent(dependency: RootDependencyStub())
        let pair = component.pair
        #expect(pair[0] === pair[1])
        #expect(pair[0] === component.thing)
    }

    @Test("makes exactly one instance under 1,000 concurrent readers")
    func concurrent() async {
        let component = SharingComponent(dependency: RootDependencyStub())
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask { ObjectIdentifier(component.thing) }
            }
            var seen = Set<ObjectIdentifier>()
            for await identity in group { seen.insert(identity) }
            return seen
        }
        #expect(identities.count == 1)
        #expect(component.thingFactoryRuns.withLock { $0 } == 1)
    }

    @Test("builders under concurrent use from many tasks each get their own component")
    @MainActor
    func concurrentBuilds() async {
        let parent = ParentComponent(dependency: RootDependencyStub())
        var serial = 0
        let builder = SimpleGreetingBuilder {
            serial += 1
            return CountingComponent(dependency: parent, serial: serial)
        }
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<200 {
                group.addTask { @MainActor in builder.build() }
            }
            var all: [String] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(Set(results).count == 200)
    }
}
