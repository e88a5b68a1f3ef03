/// One build's samples in `bench app --baseline`, kept in repetition order so that each can be
/// set beside the other build's sample of the same repetition.
struct BuildSamples {
    enum Figure: CaseIterable {
        case firstFrame, scriptStart, typedCommand, arrowKey, spaceKey

        var name: String {
            switch self {
            case .firstFrame: "cold start to first frame"
            case .scriptStart: "script start to quit"
            case .typedCommand: "typed command"
            case .arrowKey: "↓/↑ key to frame"
            case .spaceKey: "Space (toggle, saved) to frame"
            }
        }
    }

    private var firstFrames: [Double] = []
    private var quitOnly: [Double] = []
    private var withScript: [Double] = []
    private var arrowKeys: [Double] = []
    private var spaceKeys: [Double] = []

    /// One repetition: a script that only quits, the terminal's first frame, `keys` key presses
    /// of each kind on the terminal (their medians), and the script.
    mutating func measure(_ build: AppUnderTest, script: [String], keys: Int) async throws {
        quitOnly.append(try await Measurement.seconds(of: { try await build.runScript(["quit"]) }))
        firstFrames.append(try await build.coldStartOnTerminal())
        let (move, toggle) = try await build.keysOnTerminal(repetitions: keys)
        arrowKeys.append(move)
        spaceKeys.append(toggle)
        // The script toggles and renames, so the list keeps its size from run to run.
        withScript.append(
            try await Measurement.seconds(of: { try await build.runScript(script + ["quit"]) }))
    }

    /// The median of `figure`; a typed command's is the difference of the script's and the
    /// quit-only run's medians, shared out over the script's commands.
    func median(_ figure: Figure, script: [String]) -> Double {
        switch figure {
        case .firstFrame: Self.median(firstFrames)
        case .scriptStart: Self.median(quitOnly)
        case .typedCommand: max(0, Self.median(withScript) - Self.median(quitOnly)) / Double(script.count)
        case .arrowKey: Self.median(arrowKeys)
        case .spaceKey: Self.median(spaceKeys)
        }
    }

    /// This build's figure against `baseline`'s: the median over the repetitions of this
    /// build's sample divided by the baseline's of the same repetition. A typed command's is the
    /// ratio of the two medians instead: its samples are differences of two runs, too noisy to
    /// divide one by one (and a difference can be 0).
    func pairedRatio(_ figure: Figure, over baseline: BuildSamples, script: [String]) -> Double {
        if figure == .typedCommand {
            return median(figure, script: script) / baseline.median(figure, script: script)
        }
        let ratios = zip(samples(figure), baseline.samples(figure)).map { $0 / $1 }
        return Self.median(ratios)
    }

    private func samples(_ figure: Figure) -> [Double] {
        switch figure {
        case .firstFrame: firstFrames
        case .scriptStart: quitOnly
        case .typedCommand: []  // see pairedRatio
        case .arrowKey: arrowKeys
        case .spaceKey: spaceKeys
        }
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.sorted()[values.count / 2]
    }
}
