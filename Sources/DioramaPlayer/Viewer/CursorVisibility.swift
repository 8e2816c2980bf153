/// Whether the mouse cursor shows over the picture: while the pointer is used, and not once it has rested
/// `restDelay` seconds, as video players and kiosks do, in a window and in fullscreen. A player started in fullscreen
/// shows no cursor until the pointer moves. Times are monotonic seconds.
public struct CursorVisibility: Sendable, Equatable {
    /// Seconds without movement after which the cursor hides.
    public var restDelay = 2.0
    /// When the pointer last moved or a button changed, or nil when it has not since the start (fullscreen).
    private var lastUse: Double?

    /// `shownFrom`: when the cursor starts showing (the player's start), or nil to start hidden.
    public init(shownFrom start: Double?) {
        lastUse = start
    }

    /// The pointer moved, or a button was pressed or released.
    public mutating func pointerUsed(at time: Double) {
        lastUse = time
    }

    /// Whether the cursor shows at `time`; always while a press lasts (`pressed`: a hold or a drag).
    public func isShown(at time: Double, pressed: Bool = false) -> Bool {
        if pressed { return true }
        guard let lastUse else { return false }
        return time - lastUse < restDelay
    }
}
