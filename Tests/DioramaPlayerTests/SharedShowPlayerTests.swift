import DioramaDocument
import DioramaMixer
import DioramaTimeline
@testable import DioramaPlayer
import DioramaTestSupport
import Testing

/// A player on a shared show clock (`play --link`): its keys move the show for every player, and it follows moves
/// made elsewhere. The harness's audio frame 0 is heard at its clock's 100 s, shared time 0. On a screen in memory:
/// no SDL.
@Suite struct SharedShowPlayerTests {
    func linked(_ show: ManualShowClock, onlyScene: String? = nil, document: Document? = nil,
                renderer: any SnapshotRendering = FlatRenderer()) throws -> PlayerHarness {
        try PlayerHarness(renderer: renderer,
                          load: document.map { document in { _ in .success(LoadedPlaylist(document: document, baseDirectory: "/", watchedPaths: [])) } },
                          sharedClock: { clock in
            show.reading = { clock.now - 100 }
            return show
        }, onlyScene: onlyScene, embedded: true)
    }

    /// The story with the ocean ringing its bell every 0.1 s from 0.05 s (and no other cue there); its surf bed
    /// only when `bed`.
    static func clicks(bed: Bool) -> Document {
        var document = PlayerFixtures.story()
        document.scenes[0].cues = (0..<40).map { Cue(sound: "bell", trigger: .at(Rational(1 + 2 * $0, 20))) }
        if !bed { document.scenes[0].ambience = [] }
        return document
    }

    /// Stand-ins for the story's sounds, by index (bell, chime, creak: 50 ms at 0.5; surf: a steady 0.1 that loops).
    static let sounds = [MixerSound(name: "bell", mono: [Float](repeating: 0.5, count: 2400)),
                         MixerSound(name: "chime", mono: [Float](repeating: 0.5, count: 2400)),
                         MixerSound(name: "creak", mono: [Float](repeating: 0.5, count: 2400)),
                         MixerSound(name: "surf", mono: [Float](repeating: 0.1, count: 48_000))]

    /// What `play --link` does while it looks for other players: the sound device plays on for `seconds` (a whole
    /// number of 60 Hz frames) and the player reads its audio clock against the shared one every frame; no frame
    /// is drawn and nothing is scheduled.
    func search(_ h: PlayerHarness, for seconds: Double) {
        for _ in 0..<Int((seconds * 60).rounded()) {
            h.output.heard += 800
            h.clock.now += 800.0 / 48_000
            h.player.observeSharedClock()
        }
    }

    /// The frames at which sound begins after at least 10 ms of silence.
    static func onsets(_ levels: [Float]) -> [Int] {
        var onsets: [Int] = []
        var quiet = 480
        for (frame, level) in levels.enumerated() {
            if level > 0.25, quiet >= 480 { onsets.append(frame) }
            quiet = level < 0.001 ? quiet + 1 : 0
        }
        return onsets
    }

    @Test func aPlayerAloneStartsTheShowOnceItHasLookedForOthersAndRingsEveryCueOnItsOwnSample() throws {
        // A Link session of one: nobody has started its transport. The player looks for others for a second.
        let show = ManualShowClock(cycle: 12, seconds: 0, at: 0, playing: false)
        let h = try linked(show, document: Self.clicks(bed: false))
        search(h, for: 1)
        h.player.startSharedShow()
        try h.advance(2)
        // Every click was sent before its frame was played, and sounds where the show has it: a show second
        // 0.05 + 0.1 k (frame f is heard at shared time f / rate here).
        let starts = h.output.commands.compactMap { entry -> (start: VoiceStart, writeFrame: Int64)? in
            guard case .start(let start) = entry.command, start.priority == .cue else { return nil }
            return (start, entry.writeFrame)
        }
        #expect(starts.count >= 20, "\(starts.count) clicks in the show's first two seconds and the look-ahead")
        let late = starts.filter { $0.writeFrame > $0.start.frame }.map { $0.writeFrame - $0.start.frame }
        #expect(late.isEmpty, "clicks sent after their frame was played, by \(late) samples")
        for (index, start) in starts.enumerated() {
            let second = show.show(at: Double(start.start.frame) / 48_000).seconds
            #expect(abs(second - (0.05 + 0.1 * Double(index))) <= 0.5 / 48_000, "click \(index) at show second \(second)")
        }
        // Heard: one click every 4800 samples, each alone (none stacked on another).
        let levels = heardLevels(h.output.commands, sounds: Self.sounds, frames: 3 * 48_000)
        let onsets = Self.onsets(levels)
        #expect(onsets.count == 20 && zip(onsets, onsets.dropFirst()).allSatisfy { $1 - $0 == 4800 }, "clicks heard at \(onsets)")
        #expect((levels.max() ?? 0) <= 0.5 + 1e-6, "clicks on top of each other: a peak of \(levels.max() ?? 0)")
    }

    @Test func aPlayerJoiningARunningShowIsSilentUntilItHasJoinedAndThenRingsOnlyTheShowsCues() throws {
        // The show is 1.23 s in (the ocean, its surf playing, between two clicks) when this player's sound starts;
        // it finds the others and reads their clock for 0.3 s, then joins on its first frame.
        let show = ManualShowClock(cycle: 12, seconds: 1.23, at: 0)
        let renderer = RecordingRenderer()
        let h = try linked(show, document: Self.clicks(bed: true), renderer: renderer)
        search(h, for: 0.3)
        // Until then the window showed the canvas's background alone, not the playlist's start.
        let document = h.player.document
        #expect(renderer.drawn == [Snapshot(canvas: Size(width: document.canvas.width, height: document.canvas.height),
                                            background: document.canvas.background, nodes: [])])
        let joined = h.output.writeFrame()
        try h.player.step()
        #expect(renderer.drawn.count == 2 && !(renderer.drawn.last?.nodes.isEmpty ?? true), "the joined moment drawn on the first frame")
        try h.advance(1.5)
        let levels = heardLevels(h.output.commands, sounds: Self.sounds, frames: Int(joined) + 72_000)
        let before = levels[..<Int(joined)]
        #expect(before.allSatisfy { $0 == 0 }, "sound before joining, up to \(before.max() ?? 0) from frame \(before.firstIndex { $0 != 0 } ?? -1)")
        // After: only the show's clicks, each at a show second 0.05 + 0.1 k.
        let clicks = MixerModel(h.output.commands).cueStarts
        #expect(clicks.count >= 14, "\(clicks.count) clicks")
        for click in clicks {
            let second = show.show(at: Double(click.frame) / 48_000).seconds
            let offGrid = abs((second - 0.05) * 10 - ((second - 0.05) * 10).rounded()) / 10
            #expect(click.frame >= joined && offGrid <= 0.5 / 48_000, "a click at frame \(click.frame), show second \(second)")
        }
    }

    @Test func aPlayerJoiningARunningShowStartsAtItsTime() throws {
        // The show is 9.5 s in (the flower, 2.5 s in) when this player's sound starts.
        let show = ManualShowClock(cycle: 12, seconds: 9.5, at: 0)
        let h = try linked(show)
        try h.advance(1.0 / 60)
        #expect(h.position.sceneIndex == 2)
        #expect(abs(h.sceneTime - (2.5 + 1.0 / 60)) < 1.0 / 48_000)
    }

    @Test func keysMoveTheSharedShowAndThePlayerFollowsMovesMadeElsewhere() throws {
        let show = ManualShowClock(cycle: 12, seconds: 0, at: 0)
        let h = try linked(show)
        try h.advance(1)
        h.press(.right)
        try h.player.step()
        #expect(show.moves == ["move 4.0"], "next: the show moves to the swing's start at the command frame")
        #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0))
        h.press(.space)
        try h.player.step()
        #expect(show.show(at: 1).isPlaying == false && h.position.isPaused)
        try h.advance(2)
        #expect(h.position == PlaylistPosition(sceneIndex: 1, sceneFrame: 0, isPaused: true), "held with the show")
        // Another player resumes the show from 7.5 s (the flower, 0.5 s in).
        show.play(from: 7.5, at: show.now())
        try h.advance(1.0 / 60)
        #expect(h.position.sceneIndex == 2 && !h.position.isPaused)
        #expect(abs(h.sceneTime - (0.5 + 1.0 / 60)) < 1.0 / 48_000)
    }

    @Test func onlyPlaysOneSceneLoopingAndAnUnknownSceneIsAnErrorWithTheIDs() throws {
        let show = ManualShowClock(cycle: 12, seconds: 5.5, at: 0)
        let h = try linked(show, onlyScene: "swing")
        #expect(h.player.document.scenes.map(\.id) == ["swing"])
        try h.advance(1.0 / 60)
        // Show second 5.5 in the swing's 3 s loop: 2.5 s in.
        #expect(abs(h.sceneTime - (2.5 + 1.0 / 60)) < 1.0 / 48_000)
        let error = #expect(throws: PlayerStartError.self) { try PlayerHarness(onlyScene: "lake", embedded: true) }
        #expect(error?.description.contains("--only lake: no scene has that id") == true)
        #expect(error?.description.contains("hint: the scenes are ocean, swing, flower") == true)
    }
}

/// Draws as `FlatRenderer` does and keeps every snapshot it was given, in order.
final class RecordingRenderer: SnapshotRendering {
    private let flat = FlatRenderer()
    private(set) var drawn: [Snapshot] = []

    func draw(_ snapshot: Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              holdsLastFrame: Bool) {
        drawn.append(snapshot)
        flat.draw(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
    }
}
