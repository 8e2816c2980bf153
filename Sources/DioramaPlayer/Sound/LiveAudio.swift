import DioramaAudio
import DioramaDocument
import DioramaMixer
import DioramaTimeline
import Foundation

/// Opens the player's live sound (`LiveSoundOutput.open` in the audio module) for a loaded playlist.
public enum LiveAudio {
    /// - Parameters:
    ///   - bank: the playlist's sounds when already loaded (else they are loaded here).
    ///   - device: the ALSA device name; nil to play without sound (`--no-audio`).
    ///   - periodFrames: frames per period asked of the device.
    /// - Returns: the setup for the player, and the live output (to stop, and for its statistics).
    public static func open(_ playlist: LoadedPlaylist, bank: SoundBank? = nil, device: String?,
                            periodFrames: Int) -> (AudioSetup, LiveSoundOutput) {
        let bank = bank ?? SoundBank(document: playlist.document, directory: playlist.baseDirectory)
        let (output, notes) = LiveSoundOutput.open(bank: bank, device: device, periodFrames: periodFrames)
        let live = output.live
        return (AudioSetup(output: output, bank: bank, notes: notes, close: {
            live.stop()
            // Free the device now (not when the last reference goes), so the next output can open it.
            live.closeDevices()
        }), output)
    }
}

extension PlayerDependencies {
    /// The real modules: the document loader, the scene evaluator, the cairo renderer and live ALSA sound.
    /// `opened` receives the live output once it exists, so the caller can stop it and read its statistics.
    /// `renderThreads`: threads drawing each window frame; `preparesScenes`: the next scene prepared ahead on another
    /// thread (false for `--no-preroll`, to measure what a scene change costs without).
    public static func production(audioDevice: String?, periodFrames: Int, renderThreads: Int = 1, preparesScenes: Bool = true,
                                  opened: @escaping (LiveSoundOutput) -> Void) -> PlayerDependencies {
        var renderer: CairoSnapshotRenderer?
        var sounds: SoundBankLoading?
        let lazyRenderer = LazyRenderer { renderer! }
        var dependencies = PlayerDependencies(
            load: { path in
                let result = PlaylistFiles.load(path: path)
                if case .success(let playlist) = result, renderer == nil {
                    renderer = CairoSnapshotRenderer(imageDirectory: playlist.baseDirectory, threads: renderThreads,
                                                     preparesScenes: preparesScenes)
                    // Decode the sounds while the window opens and the first frame is drawn.
                    sounds = SoundBankLoading(playlist)
                }
                return result
            },
            scenes: EvaluatedScenes(),
            renderer: lazyRenderer,
            audio: { playlist in
                // The sounds decoded in the background belong to the first load only.
                let (setup, output) = LiveAudio.open(playlist, bank: sounds?.wait(), device: audioDevice, periodFrames: periodFrames)
                sounds = nil
                opened(output)
                return setup
            })
        dependencies.makeBackgroundRenderer = { CairoSnapshotRenderer(imageDirectory: $0) }
        return dependencies
    }
}

/// A renderer made on first use (its image folder is known only once the file has loaded).
final class LazyRenderer: SnapshotRendering {
    private let make: () -> any SnapshotRendering
    private lazy var renderer: any SnapshotRendering = make()

    init(_ make: @escaping () -> any SnapshotRendering) {
        self.make = make
    }

    func draw(_ snapshot: DioramaTimeline.Snapshot, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
              holdsLastFrame: Bool) throws {
        try renderer.draw(snapshot, into: pixels, width: width, height: height, stride: stride, holdsLastFrame: holdsLastFrame)
    }

    func prepare(scene: Int, width: Int, height: Int, frames: () -> [DioramaTimeline.Snapshot]) {
        renderer.prepare(scene: scene, width: width, height: height, frames: frames)
    }

    func show(scene: Int) { renderer.show(scene: scene) }

    var lastWrittenAreas: [Rect]? { renderer.lastWrittenAreas }

    var sceneChanges: SceneChanges { renderer.sceneChanges }
}

/// A playlist's sound bank decoded on a thread of its own.
final class SoundBankLoading: @unchecked Sendable {
    // @unchecked Sendable: `bank` is written once by the loading thread before it signals `done`,
    // and read only after waiting for `done`.
    private var bank: SoundBank?
    private let done = DispatchSemaphore(value: 0)

    init(_ playlist: LoadedPlaylist) {
        let document = playlist.document, directory = playlist.baseDirectory
        let thread = Thread { [self] in
            let loaded = SoundBank(document: document, directory: directory)
            // With a loudness target, the first scene is measured before the bank is handed over, and the others after,
            // in playing order, while the first plays: the bank remembers the figures, so the player's scene gains
            // (`PlaylistAudio.measuringScenesWhenNeeded`) find them measured by the time each scene starts.
            let target = document.loudness
            let scenes = target == nil ? 0..<0 : document.scenes.indices
            if let target, let first = scenes.first {
                _ = PlaylistAudio.measureGain(ofScene: first, document: document, bank: loaded, target: target)
            }
            bank = loaded
            done.signal()
            if let target {
                for scene in scenes.dropFirst() {
                    _ = PlaylistAudio.measureGain(ofScene: scene, document: document, bank: loaded, target: target)
                }
            }
        }
        thread.start()
    }

    /// The bank, once loaded.
    func wait() -> SoundBank {
        done.wait()
        done.signal()
        return bank!
    }
}
