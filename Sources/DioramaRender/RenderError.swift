/// Why a frame could not be produced or written.
public struct RenderError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    static func cairo(_ status: UInt32, while action: String) -> RenderError {
        RenderError("cairo failed while \(action): status \(status)")
    }
}
