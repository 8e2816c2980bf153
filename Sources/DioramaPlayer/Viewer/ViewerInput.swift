import DioramaDocument

/// A key the story viewer responds to, independent of SDL's key codes.
public enum ViewerKey: Sendable, Equatable {
    case space, right, left, home
    /// The digit keys 1 ... 9.
    case digit(Int)
    case l, m, plus, minus, f, r, q, escape, questionMark, h
}

/// One input event, with pointer positions already in canvas points (see `Letterbox`).
public enum ViewerInput: Sendable, Equatable {
    case pointerDown(Point)
    case pointerMoved(Point)
    case pointerUp(Point)
    case key(ViewerKey)

    /// Whether the pointer caused it (a button or a move), which shows the cursor.
    public var isPointer: Bool {
        if case .key = self { return false }
        return true
    }
}

/// What the viewer needs to know about the playlist to interpret a gesture.
public struct ViewerContext: Sendable, Equatable {
    /// The current scene, 0-based.
    public var sceneIndex: Int
    public var sceneCount: Int
    /// Whether `next` after the last scene wraps to the first (otherwise it ends playback).
    public var wraps: Bool

    public init(sceneIndex: Int, sceneCount: Int, wraps: Bool) {
        self.sceneIndex = sceneIndex
        self.sceneCount = sceneCount
        self.wraps = wraps
    }

    /// Whether a drag to the left may page to a following scene.
    var hasNext: Bool { sceneCount > 1 && (wraps || sceneIndex < sceneCount - 1) }
    /// Whether a drag to the right may page to an earlier scene.
    var hasPrevious: Bool { sceneIndex > 0 }
}
