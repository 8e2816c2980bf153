/// The words of the viewer's chrome (the key help, the toasts, the banner's last line) in one language. English,
/// Chinese and Japanese are built in; any other language falls back to English.
public struct ChromeText: Sendable, Equatable {
    /// One line of the key help: the keys, and what they do.
    public struct HelpLine: Sendable, Equatable {
        public var keys: String
        public var action: String

        public init(_ keys: String, _ action: String) {
            self.keys = keys
            self.action = action
        }
    }

    public var help: [HelpLine]
    public var muted: String
    /// The volume toast; `{n}` stands for the percentage.
    public var volume: String
    /// The banner's last line when errors are left out; `{n}` stands for how many lines.
    public var moreLines: String
    /// The same for a single line left out.
    public var moreLine: String
    /// The toast when the language choice cannot be saved; `{reason}` stands for why.
    public var cannotSaveLanguage: String

    /// The chrome's words for `language`: the playlist's (`languages.chrome`, English strings to their translation)
    /// where it has them, else the built-in ones, else English.
    public init(language: String, playlist: [String: [String: String]] = [:]) {
        self = Self.builtIn[language] ?? Self.english
        guard let translations = playlist[language] else { return }
        let english = Self.english
        func translated(_ current: String, _ original: String) -> String { translations[original] ?? current }
        help = zip(help, english.help).map { line, original in
            HelpLine(translated(line.keys, original.keys), translated(line.action, original.action))
        }
        muted = translated(muted, english.muted)
        volume = translated(volume, english.volume)
        moreLines = translated(moreLines, english.moreLines)
        moreLine = translated(moreLine, english.moreLine)
        cannotSaveLanguage = translated(cannotSaveLanguage, english.cannotSaveLanguage)
    }

    /// Every English string a playlist can translate, as `languages.chrome` names them.
    public static var englishStrings: [String] {
        english.help.flatMap { [$0.keys, $0.action] }
            + [english.muted, english.volume, english.moreLines, english.moreLine, english.cannotSaveLanguage]
    }

    init(help: [HelpLine], muted: String, volume: String, moreLines: String, moreLine: String, cannotSaveLanguage: String) {
        self.help = help
        self.muted = muted
        self.volume = volume
        self.moreLines = moreLines
        self.moreLine = moreLine
        self.cannotSaveLanguage = cannotSaveLanguage
    }

    /// The volume toast for a gain of `volume` (1 is 100 %).
    public func volumeToast(_ volume: Float) -> String {
        self.volume.replacingOccurrences(of: "{n}", with: String(Int((volume * 100).rounded())))
    }

    /// The banner's line saying `count` more lines are left out.
    public func moreLinesLine(_ count: Int) -> String {
        (count == 1 ? moreLine : moreLines).replacingOccurrences(of: "{n}", with: String(count))
    }

    public func cannotSaveLanguage(_ reason: String) -> String {
        cannotSaveLanguage.replacingOccurrences(of: "{reason}", with: reason)
    }

    /// The built-in languages' codes.
    public static var builtInLanguages: [String] { ["en", "zh", "ja"] }

    static let builtIn: [String: ChromeText] = ["en": english, "zh": chinese, "ja": japanese]

    public static let english = ChromeText(
        help: [
            HelpLine("Space", "pause / resume"),
            HelpLine("→ ←  or click right / left", "next / previous scene"),
            HelpLine("hold", "pause while held"),
            HelpLine("drag", "page to the next / previous scene"),
            HelpLine("Home", "restart"),
            HelpLine("1 – 9  or a dot", "jump to a scene"),
            HelpLine("L", "next language"),
            HelpLine("M   + −", "mute, volume"),
            HelpLine("F", "fullscreen"),
            HelpLine("R", "reload the file"),
            HelpLine("H", "hide the overlay"),
            HelpLine("?", "this help"),
            HelpLine("Q  Esc", "quit"),
        ],
        muted: "Muted", volume: "Volume {n} %",
        moreLines: "… {n} more lines: run `diorama check` for all of them",
        moreLine: "… {n} more line: run `diorama check` for all of them",
        cannotSaveLanguage: "cannot save the language: {reason}")

    public static let chinese = ChromeText(
        help: [
            HelpLine("空格", "暂停 / 继续"),
            HelpLine("→ ←  或点击右 / 左", "下一个 / 上一个场景"),
            HelpLine("按住", "按住时暂停"),
            HelpLine("拖动", "翻到下一个 / 上一个场景"),
            HelpLine("Home", "从头开始"),
            HelpLine("1 – 9  或圆点", "跳到某个场景"),
            HelpLine("L", "下一种语言"),
            HelpLine("M   + −", "静音、音量"),
            HelpLine("F", "全屏"),
            HelpLine("R", "重新载入文件"),
            HelpLine("H", "隐藏界面"),
            HelpLine("?", "本帮助"),
            HelpLine("Q  Esc", "退出"),
        ],
        muted: "已静音", volume: "音量 {n}%",
        moreLines: "… 还有 {n} 行：运行 `diorama check` 查看全部",
        moreLine: "… 还有 {n} 行：运行 `diorama check` 查看全部",
        cannotSaveLanguage: "无法保存语言：{reason}")

    public static let japanese = ChromeText(
        help: [
            HelpLine("スペース", "一時停止 / 再開"),
            HelpLine("→ ←  または右 / 左をクリック", "次 / 前のシーン"),
            HelpLine("長押し", "押している間は一時停止"),
            HelpLine("ドラッグ", "次 / 前のシーンへめくる"),
            HelpLine("Home", "最初から"),
            HelpLine("1 – 9  またはドット", "シーンへ移動"),
            HelpLine("L", "次の言語"),
            HelpLine("M   + −", "ミュート、音量"),
            HelpLine("F", "全画面"),
            HelpLine("R", "ファイルを再読み込み"),
            HelpLine("H", "表示を隠す"),
            HelpLine("?", "このヘルプ"),
            HelpLine("Q  Esc", "終了"),
        ],
        muted: "ミュート", volume: "音量 {n}%",
        moreLines: "… ほか {n} 行：すべて見るには `diorama check` を実行",
        moreLine: "… ほか {n} 行：すべて見るには `diorama check` を実行",
        cannotSaveLanguage: "言語を保存できません：{reason}")

    /// A generous estimate of how wide `text` draws at `size` points in the overlay's sans face (DejaVu Sans, with
    /// Noto Sans CJK for Chinese and Japanese): CJK characters are one em wide, a space 0.32 em, arrows and
    /// mathematical signs 0.84 em, others
    /// 0.6 em (0.66 em in bold), a little over DejaVu Sans's average. A test renders the help in every built-in language to check no glyph reaches the padding.
    public static func estimatedWidth(of text: String, size: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                ems += 1
            case 0x20: ems += 0.32
            case 0x2190...0x22FF: ems += 0.84  // arrows and mathematical signs
            default: ems += bold ? 0.66 : 0.6
            }
        }
        return ems * size
    }
}
