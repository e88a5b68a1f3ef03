import Foundation
import TodoAppCore

// TodoApp-Dog: the TodoApp over the Dog CEO API. The flavor is fixed here, at compile time.
exit(await TodoApp.main(flavor: .dog))
