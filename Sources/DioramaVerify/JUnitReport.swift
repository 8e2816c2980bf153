/// The checks as a JUnit XML report, the format CI systems read: one `testsuite` per scene (in playlist order,
/// the file's own checks last), one `testcase` per check, a `failure` with its message on each failing one.
public enum JUnitReport {
    public static func xml(_ checks: [VerificationCheck], suite: String, elapsedSeconds: Double = 0) -> String {
        var scenes: [String] = []
        for check in checks where !scenes.contains(check.scene) { scenes.append(check.scene) }
        let failures = checks.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escaped("diorama verify " + suite))\" tests=\"\(checks.count)\" failures=\"\(failures)\" "
            + "errors=\"0\" time=\"\(String(format: "%.3f", elapsedSeconds))\">\n"
        for scene in scenes {
            let cases = checks.filter { $0.scene == scene }
            let name = scene.isEmpty ? suite : scene
            xml += "  <testsuite name=\"\(escaped(name))\" tests=\"\(cases.count)\" failures=\"\(cases.filter { !$0.passed }.count)\" errors=\"0\">\n"
            for check in cases {
                let opening = "    <testcase classname=\"\(escaped("diorama.verify." + name))\" name=\"\(escaped(check.name))\""
                if check.passed {
                    xml += opening + ">\n      <system-out>\(escaped(check.detail))</system-out>\n    </testcase>\n"
                } else {
                    xml += opening + ">\n      <failure message=\"\(escaped(check.detail))\">\(escaped(check.line))</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text for an attribute or element: the five XML entities, and control characters XML 1.0 forbids dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
