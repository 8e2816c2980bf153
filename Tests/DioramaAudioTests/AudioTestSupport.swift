import DioramaAudio
import DioramaMixer
import Foundation

/// A mono ramp of `frames` samples from -0.5 to 0.5: every sample differs, so offsets show.
func ramp(frames: Int) -> [Float] {
    (0..<frames).map { Float($0) / Float(max(frames - 1, 1)) - 0.5 }
}


/// A looping bed of a hand-made scene (`sceneCommands`).
struct TestBed {
    var sound: Int
    var gain: Float
    var fadeInFrames: Int
    var fadeOutFrames: Int
}

/// Mixer commands in frame order for hand-made tests, laid out as a playlist's are: each scene's beds start with it
/// (fading in, tagged as the playlist tags them) and fade out from its end; one-shot cues start on their frames. At one
/// frame, the beds' starts and ends come first, in scene order, then the cues, each in the order given.
func sceneCommands(scenes: [(start: Int64, end: Int64, beds: [TestBed])],
                   cues: [(frame: Int64, sound: Int, gain: Float, pan: Float)]) -> [MixerCommand] {
    var timed: [(frame: Int64, command: MixerCommand)] = []
    for (index, scene) in scenes.enumerated() {
        for (bedIndex, bed) in scene.beds.enumerated() {
            let tag = PlaylistAudio.bedTag(scene: index, bed: bedIndex)
            timed.append((scene.start, .start(VoiceStart(sound: bed.sound, frame: scene.start, gain: bed.gain, fadeInFrames: bed.fadeInFrames,
                                                        loops: true, tag: tag, priority: .ambience, catchUp: true))))
            timed.append((scene.end, .stop(tag: tag, frame: scene.end, fadeFrames: bed.fadeOutFrames)))
        }
    }
    for cue in cues {
        timed.append((cue.frame, .start(VoiceStart(sound: cue.sound, frame: cue.frame, gain: cue.gain, pan: cue.pan, catchUp: true))))
    }
    return timed.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element.command)
}
