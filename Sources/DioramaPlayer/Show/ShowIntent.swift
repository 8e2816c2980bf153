/// Everything that can be asked of a player, in one vocabulary: the keys and clicks (the story viewer turns them
/// into intents) and a show controller (`diorama play --osc` maps each `ShowCommand` into one). On a shared show
/// (`--link`) a navigation or pause moves the show for every player.
public enum ShowIntent: Sendable, Equatable {
    case next
    case previous
    /// Back to the start of the first scene, paused or playing as before (Home).
    case restart
    /// The playlist from its first scene, playing (a controller's go).
    case go
    /// The scene at this index (0-based), from its start (keys 1-9, page dots, a controller).
    case scene(Int)
    /// The scene with this id, from its start.
    case sceneID(String)
    /// Seconds into the current scene (clamped to it).
    case seek(Double)
    case togglePause
    /// Pauses; nothing when paused already (a controller's pause is not a toggle).
    case pause
    /// Plays on; nothing when playing already.
    case resume
    /// A press has been held long enough: pause until `holdEnded`.
    case holdBegan
    case holdEnded
    /// The master volume, clamped to `Mixer.volumeRange` (the keys and show controllers share it).
    case volume(Float)
    case volumeUp
    case volumeDown
    case toggleMute
    /// A language code the playlist offers (for this run; the saved choice is kept).
    case language(String)
    /// The next language the playlist offers, saved as the user's choice.
    case cycleLanguage
    case toggleFullscreen
    /// Loads the scenes file again.
    case reload
    case quit

    /// Who asked: the user at the window (keys, clicks), or a show controller, whose intents are logged as commands
    /// and whose names of scenes and languages are checked against the playlist.
    public enum Source: Sendable, Equatable {
        case viewer
        case controller
    }
}
