import RibcageTool

/// The `ribcage` executable: everything lives in RibcageTool's ``RibcageCommand``.
@main
enum Ribcage {
    static func main() async {
        await RibcageCommand.mainStoppingOnSignals()
    }
}
