import DioramaPlayer
import DioramaTestSupport
import Testing

extension WindowSuites {
    /// The title a window manager shows is EWMH's _NET_WM_NAME (UTF-8). SDL 2.26 left it at the window's first title and
    /// wrote only WM_NAME, mangled as Latin-1 ("Ocean Buoy â€” Diorama"), so the title bar never named the scene.
    @Suite struct WindowTitleTests {
        init() throws {
            try XServer.startVideo()
        }

        @Test func theTitleAWindowManagerReadsFollowsEachSceneInUTF8() throws {
            let window = try PlayerWindow(title: "Diorama", width: 320, height: 180, vsync: false, renderer: .software)
            #expect(window.managedTitle == "Diorama")
            for title in ["Ocean Buoy — Diorama", "呼吸 — Diorama", "息を吸って — Diorama"] {
                window.setTitle(title)
                #expect(window.managedTitle == title)
            }
        }
    }
}
