import Foundation
import TodoAppCore

// TodoApp-Cat: the TodoApp over The Cat API (`CAT_API_KEY` is sent when set, never logged).
exit(await TodoApp.main(flavor: .cat))
