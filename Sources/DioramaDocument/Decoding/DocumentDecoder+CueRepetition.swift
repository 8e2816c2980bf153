// A cue's `every` and `count`: how it repeats after each firing of its trigger (Model+CueRepetition.swift).

extension DocumentDecoder {
    /// The cue's repetition (nil without `every`); `valid` false after a reported problem.
    func cueRepetition(_ fields: Fields) -> (repetition: CueRepetition?, valid: Bool) {
        guard let everyMember = fields["every"] else {
            if let countMember = fields["count"] {
                error(countMember.keyOffset, fields.path("count"), "\"count\" needs \"every\": the seconds between the firings",
                      hint: "add \"every\": 0.5 to fire \(Self.countText(countMember.value)) times, half a second apart")
                return (nil, false)
            }
            return (nil, true)
        }
        let every = time(everyMember.value, path: fields.path("every"), minimum: .zero, minimumIsExclusive: true)
        var count: Int?
        if let countMember = fields["count"] {
            guard let value = integer(countMember.value, path: fields.path("count"), range: 1...DocumentLimits.maximumCueCount) else {
                return (nil, false)
            }
            count = value
        }
        guard let every else { return (nil, false) }
        return (CueRepetition(every: every, count: count), true)
    }

    private static func countText(_ value: JSONValue) -> String {
        if case .number(let literal) = value.kind { return shortened(literal) }
        return "N"
    }
}
