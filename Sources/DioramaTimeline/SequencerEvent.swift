import DioramaDocument

/// Something that happens while a playlist plays, at an exact frame of the sample clock the sequencer is driven by.
public enum SequencerEvent: Sendable, Equatable {
    /// The scene starts showing: start its ambience (SwiftUI's onAppear).
    case sceneAppeared(scene: Int, frame: Int64)
    /// The scene stops showing: fade its ambience out (onDisappear).
    case sceneDisappeared(scene: Int, frame: Int64)
    /// Start the cue's sound at exactly `frame`.
    case cueDue(CueFiring, frame: Int64)
    /// End the sound of a cue (its `until`, or a stop cue) from exactly `frame`, fading over the stop's fade-out:
    /// every voice of that cue started before it.
    case cueStopDue(CueStop, frame: Int64)
    /// Start an ambience whose `start` is a moment of the scene, at exactly `frame`. It ends with its scene.
    case ambienceDue(AmbienceStart, frame: Int64)
    /// Everything holds still: the sound ramps out briefly and every voice holds where it is (a bed keeps its
    /// place, a ringing bell its decay) until `resumed`. Cues after the pause are not returned until then.
    case paused(frame: Int64)
    /// Playing again from where `paused` held: the held sound continues (nothing restarts) with a short ramp in;
    /// `scene` is the scene showing. Later cues come shifted by exactly the pause.
    case resumed(scene: Int, frame: Int64)
    /// The last scene ended and the sequencer does not wrap.
    case finished(frame: Int64)
    /// Every event at or after `frame` returned earlier is void (a navigation or pause changed the future that
    /// a look-ahead had already been told): drop the cues scheduled at or after it and undo scene changes there
    /// (beds' stops and starts), and any pause or resume there.
    case revoked(fromFrame: Int64)

    /// The frame of the sample clock at which the event takes effect.
    public var frame: Int64 {
        switch self {
        case .sceneAppeared(_, let frame), .sceneDisappeared(_, let frame), .cueDue(_, let frame),
             .paused(let frame), .resumed(_, let frame), .finished(let frame), .revoked(let frame),
             .cueStopDue(_, let frame), .ambienceDue(_, let frame):
            frame
        }
    }
}

/// What the playlist does after its last scene.
public enum PlaylistEnd: Sendable, Equatable {
    /// Start again with the first scene (a story viewer's loop).
    case wrap
    /// Stop, with every progress segment full.
    case stop
}
