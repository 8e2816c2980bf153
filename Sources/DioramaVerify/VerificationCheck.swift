/// The outcome of one check of `diorama verify`: one line of its output, one testcase of its JUnit report.
public struct VerificationCheck: Sendable, Equatable {
    /// The scene's id; empty for a check of the whole file.
    public var scene: String
    /// What is checked, the same whether it passes or fails: `cue 0 (bell) firing 1 starts on its sample`.
    public var name: String
    public var passed: Bool
    /// What was found; on failure, what was expected and what was found instead.
    public var detail: String

    public init(scene: String, name: String, passed: Bool, detail: String) {
        self.scene = scene
        self.name = name
        self.passed = passed
        self.detail = detail
    }

    /// `ok    ocean: cue 0 (bell) firing 1 starts on its sample: sample 57600 (scene 1.2 s)`.
    public var line: String {
        (passed ? "ok    " : "FAIL  ") + (scene.isEmpty ? "" : scene + ": ") + name + ": " + detail
    }
}

/// What a run of checks came to.
public struct VerificationSummary: Sendable, Equatable {
    public var passed: Int
    public var failed: Int

    public init(_ checks: [VerificationCheck]) {
        passed = checks.filter(\.passed).count
        failed = checks.count - passed
    }

    /// `12 passed, 0 failed`.
    public var line: String { "\(passed) passed, \(failed) failed" }
}
