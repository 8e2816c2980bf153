import DioramaDocument

/// Each scene's loudness, for the report: figures `diorama timeline` measures on the offline mix (DioramaAudio's
/// `PlaylistAudio.sceneLoudness`, libebur128), passed in as plain numbers so the timeline stays free of C libraries.
public struct SceneLoudnessReport: Sendable, Equatable {
    public struct Scene: Sendable, Equatable {
        /// Integrated loudness as played (with the scene's gain), LUFS; nil for silence.
        public var integrated: Double?
        /// True peak as played, dBTP; -infinity for digital silence.
        public var truePeak: Double
        /// With a target: the scene's gain in dB, and the loudness and true peak of its mix without it.
        public var gain: Double?
        public var mixedIntegrated: Double?
        public var mixedTruePeak: Double?
        /// With a target the scene falls short of: `"truePeak"`, `"maximumGain"` or `"silent"`.
        public var limit: String?

        public init(integrated: Double?, truePeak: Double, gain: Double? = nil, mixedIntegrated: Double? = nil,
                    mixedTruePeak: Double? = nil, limit: String? = nil) {
            self.integrated = integrated
            self.truePeak = truePeak
            self.gain = gain
            self.mixedIntegrated = mixedIntegrated
            self.mixedTruePeak = mixedTruePeak
            self.limit = limit
        }
    }

    /// The playlist's target (`"loudness"`), LUFS, if it has one.
    public var target: Double?
    /// By scene index.
    public var scenes: [Scene]

    public init(target: Double?, scenes: [Scene]) {
        self.target = target
        self.scenes = scenes
    }
}

extension TimelineReport {
    /// A scene's loudness keys, at the end of its object in the JSON.
    func loudnessFields(scene index: Int) -> [(String, String)] {
        guard let loudness, loudness.scenes.indices.contains(index) else { return [] }
        let scene = loudness.scenes[index]
        var fields = [("loudness", Self.decibels(scene.integrated)), ("truePeak", Self.decibels(scene.truePeak))]
        if loudness.target != nil {
            fields += [("loudnessGain", Self.decibels(scene.gain)), ("mixedLoudness", Self.decibels(scene.mixedIntegrated)),
                       ("mixedTruePeak", Self.decibels(scene.mixedTruePeak))]
            if let limit = scene.limit { fields.append(("loudnessLimit", Self.quoted(limit))) }
        }
        return fields
    }

    /// `"loudnessTarget"` at the end of the JSON object, when the playlist has one.
    func loudnessTargetSection() -> String {
        guard let target = loudness?.target else { return "" }
        return ",\n  \"loudnessTarget\": \(Self.decibels(target))"
    }

    /// The loudness table of the text report: each scene's own mix, and with a target its gain and what it becomes.
    func loudnessText() -> String {
        guard let loudness else { return "" }
        let spans = schedule.scenes
        if let target = loudness.target {
            return "loudness (EBU R128, each scene's own mix), target \(SceneLoudnessReport.tenths(target)) LUFS, true peak at most -1 dBTP:\n"
                + Self.table(
                    header: ["#", "scene", "mixed LUFS", "mixed dBTP", "gain dB", "LUFS", "dBTP", ""],
                    rightAligned: [0, 2, 3, 4, 5, 6],
                    rows: spans.map { span in
                        let scene = loudness.scenes[span.index]
                        return ["\(span.index)", span.id, Self.lufs(scene.mixedIntegrated), Self.peak(scene.mixedTruePeak ?? -.infinity),
                                scene.gain.map { ($0 > 0 ? "+" : "") + SceneLoudnessReport.tenths($0) } ?? "", Self.lufs(scene.integrated),
                                Self.peak(scene.truePeak), Self.limitNote(scene, target: target)]
                    }).replacingTrailingSpaces() + "\n"
        }
        return "loudness (EBU R128, each scene's own mix):\n"
            + Self.table(
                header: ["#", "scene", "LUFS", "true peak dBTP"], rightAligned: [0, 2, 3],
                rows: spans.map { span in
                    let scene = loudness.scenes[span.index]
                    return ["\(span.index)", span.id, Self.lufs(scene.integrated), Self.peak(scene.truePeak)]
                }) + "\n"
    }

    private static func limitNote(_ scene: SceneLoudnessReport.Scene, target: Double) -> String {
        let short = scene.integrated.map { target - $0 } ?? 0
        switch scene.limit {
        case "truePeak": return "short by \(SceneLoudnessReport.tenths(short)) LU: its true peak"
        case "maximumGain": return "short by \(SceneLoudnessReport.tenths(short)) LU: at the most gain"
        case "silent": return "silent"
        default: return ""
        }
    }

    /// Decibels in the JSON, to 1/100 dB; null for silence.
    static func decibels(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return number((value * 100).rounded() / 100)
    }

    private static func lufs(_ value: Double?) -> String { value.map { SceneLoudnessReport.tenths($0) } ?? "silent" }
    private static func peak(_ value: Double) -> String { value.isFinite ? SceneLoudnessReport.tenths(value) : "-inf" }

}

extension SceneLoudnessReport {
    /// Decibels or LUFS as people read them: one decimal, never "-0.0".
    public static func tenths(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int64(abs(tenths)) / 10
        let fraction = Int64(abs(tenths)) % 10
        return (tenths < 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}

private extension String {
    /// Each line without the spaces an empty last column leaves.
    func replacingTrailingSpaces() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
