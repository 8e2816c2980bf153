/// What a show controller can ask of a player (`diorama play --osc`): the story viewer's navigation and a few
/// settings, each acting as the matching key does (on the shared show, for every player, with `--link`).
public enum PlayerCommand: Sendable, Equatable {
    /// The playlist from its first scene, playing.
    case go
    case next
    case previous
    case pause
    case resume
    /// The scene at this index (0-based), from its start.
    case scene(Int)
    /// The scene with this id, from its start.
    case sceneID(String)
    /// Seconds into the current scene (clamped to it).
    case seek(Double)
    /// The master volume, 0...1.
    case volume(Float)
    /// A language code the playlist offers (for this run; the saved choice is kept).
    case language(String)
    /// Loads the scenes file again.
    case reload
}
