import CDioramaShims
import CSDL
import Foundation

/// Why the player cannot open its window.
public struct DisplayUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is missing, e.g. "DISPLAY and WAYLAND_DISPLAY are not set".
    public var reason: String

    /// One line, suggesting headless rendering instead.
    public var description: String {
        "no display available (\(reason)); to make frames without a window, use `diorama render FILE --out DIR`"
    }
}

/// SDL's video and event subsystems, started once per process and quiet: SDL's own log output is
/// silenced so that a missing display gives one clear line, not SDL noise.
public enum VideoSystem {
    /// Starts SDL video. With no SDL_VIDEODRIVER chosen and neither DISPLAY nor WAYLAND_DISPLAY set,
    /// fails before touching SDL. `driver` forces a driver ("x11", "offscreen", "dummy").
    public static func start(driver: String? = nil,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(DisplayUnavailable) {
        if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) != 0 {
            let current = SDL_GetCurrentVideoDriver().map { String(cString: $0) }
            if driver == nil || current == driver { return }
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS))
        }
        let chosen = driver ?? environment["SDL_VIDEODRIVER"].flatMap { $0.isEmpty ? nil : $0 }
        if chosen == nil, (environment["DISPLAY"] ?? "").isEmpty, (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            throw DisplayUnavailable(reason: "DISPLAY and WAYLAND_DISPLAY are not set")
        }
        diorama_sdl_silence_logs()
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        if let driver { SDL_SetHint(SDL_HINT_VIDEODRIVER, driver) } else { SDL_ResetHint(SDL_HINT_VIDEODRIVER) }
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else {
            let error = String(cString: SDL_GetError())
            let place = chosen.map { "video driver \($0)" } ?? (environment["DISPLAY"].map { "DISPLAY=\($0)" } ?? "Wayland")
            throw DisplayUnavailable(reason: "\(place): \(error.isEmpty ? "SDL could not start video" : error)")
        }
    }

    /// The running video driver's name ("x11", "wayland", "offscreen", "dummy").
    public static var driverName: String? {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) }
    }

    /// Stops SDL video (tests switch drivers between suites).
    public static func stop() {
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS))
    }
}
