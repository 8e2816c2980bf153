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
    /// SDL's name of its KMS/DRM driver: the screen itself, with no X server or compositor (a Raspberry Pi kiosk).
    public static let kmsDRM = "kmsdrm"

    /// Starts SDL video. `driver` forces a driver ("x11", "offscreen", "dummy", "kmsdrm"); else SDL_VIDEODRIVER when
    /// set; else X11 or Wayland when DISPLAY or WAYLAND_DISPLAY is set; else KMS/DRM when the machine has a display
    /// device (`drmCards`, the cards in /dev/dri). With none of them, fails before touching SDL.
    public static func start(driver: String? = nil,
                             environment: [String: String] = ProcessInfo.processInfo.environment,
                             drmCards: [String] = drmCards()) throws(DisplayUnavailable) {
        if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) != 0 {
            let current = SDL_GetCurrentVideoDriver().map { String(cString: $0) }
            if driver == nil || current == driver { return }
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS))
        }
        var chosen = driver ?? environment["SDL_VIDEODRIVER"].flatMap { $0.isEmpty ? nil : $0 }
        if chosen == nil, (environment["DISPLAY"] ?? "").isEmpty, (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            guard !drmCards.isEmpty else {
                throw DisplayUnavailable(reason: "DISPLAY and WAYLAND_DISPLAY are not set, and no display device is in /dev/dri for KMS/DRM")
            }
            chosen = kmsDRM
        }
        diorama_sdl_silence_logs()
        SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        if let chosen { SDL_SetHint(SDL_HINT_VIDEODRIVER, chosen) } else { SDL_ResetHint(SDL_HINT_VIDEODRIVER) }
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else {
            let error = String(cString: SDL_GetError())
            let said = error.isEmpty ? "SDL could not start video" : error
            if chosen?.lowercased() == kmsDRM {
                throw DisplayUnavailable(reason: kmsDRMFailure(said, cards: drmCards))
            }
            let place = chosen.map { "video driver \($0)" } ?? (environment["DISPLAY"].map { "DISPLAY=\($0)" } ?? "Wayland")
            throw DisplayUnavailable(reason: "\(place): \(said)")
        }
    }

    /// The display devices (DRM cards) of the machine: /dev/dri/card0 and so on.
    public static func drmCards(in directory: String = "/dev/dri") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("card") }.sorted().map { "\(directory)/\($0)" }
    }

    /// Why KMS/DRM did not start, with what to check.
    public static func kmsDRMFailure(_ error: String, cards: [String]) -> String {
        guard !cards.isEmpty else {
            return "KMS/DRM: \(error): this machine has no display device (no card in /dev/dri)"
        }
        return "KMS/DRM: \(error) on \(cards.joined(separator: ", ")): it needs read and write access (the video group) and no X "
            + "server or compositor holding the screen"
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
