import CSDL
import DioramaDocument

/// An SDL event, as the player sees it.
public enum WindowEvent: Sendable, Equatable {
    case input(ViewerInput)
    /// The window was closed, or the process asked to quit.
    case close
    /// The window changed size or was uncovered: the next frame must be drawn even if nothing moved.
    case resized
    /// The pointer moved with no button held (it shows the cursor; pages only move while a button is held).
    case pointerHovered
}

/// Turns SDL events into window events. Keys that depend on the keyboard layout (`?`, `+`, `-`)
/// come from text input, the rest from key codes.
enum SDLInput {
    static func translate(_ event: SDL_Event, pixelRatio: Double, letterbox: Letterbox) -> WindowEvent? {
        func canvasPoint(_ x: Int32, _ y: Int32) -> Point {
            letterbox.canvasPoint(fromWindow: Point(x: Double(x) * pixelRatio, y: Double(y) * pixelRatio))
        }
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .close
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_CLOSE: return .close
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED, SDL_WINDOWEVENT_EXPOSED: return .resized
            default: return nil
            }
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .input(.pointerDown(canvasPoint(event.button.x, event.button.y)))
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            return .input(.pointerUp(canvasPoint(event.button.x, event.button.y)))
        // 1 is SDL_BUTTON_LMASK, a macro Swift does not import.
        case SDL_MOUSEMOTION where event.motion.state & 1 != 0:
            return .input(.pointerMoved(canvasPoint(event.motion.x, event.motion.y)))
        case SDL_MOUSEMOTION:
            return .pointerHovered
        case SDL_FINGERDOWN, SDL_FINGERUP, SDL_FINGERMOTION:
            // Touch screens also deliver synthesized mouse events, which are handled above.
            return nil
        case SDL_TEXTINPUT:
            let text = withUnsafeBytes(of: event.text.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch text {
            case "?": return .input(.key(.questionMark))
            case "+", "=": return .input(.key(.plus))
            case "-", "_": return .input(.key(.minus))
            default: return nil
            }
        case SDL_KEYDOWN:
            return key(event.key.keysym.sym).map { .input(.key($0)) }
        default:
            return nil
        }
    }

    static func key(_ code: SDL_Keycode) -> ViewerKey? {
        func matches(_ key: SDL_KeyCode) -> Bool { code == SDL_Keycode(bitPattern: key.rawValue) }
        if matches(SDLK_SPACE) { return .space }
        if matches(SDLK_RIGHT) { return .right }
        if matches(SDLK_LEFT) { return .left }
        if matches(SDLK_HOME) { return .home }
        if matches(SDLK_ESCAPE) { return .escape }
        if code >= SDL_Keycode(bitPattern: SDLK_1.rawValue), code <= SDL_Keycode(bitPattern: SDLK_9.rawValue) {
            return .digit(Int(code - SDL_Keycode(bitPattern: SDLK_1.rawValue)) + 1)
        }
        let letters: [(SDL_KeyCode, ViewerKey)] = [
            (SDLK_l, .l), (SDLK_m, .m), (SDLK_f, .f), (SDLK_r, .r), (SDLK_q, .q), (SDLK_h, .h),
        ]
        return letters.first { matches($0.0) }?.1
    }
}
