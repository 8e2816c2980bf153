// swift-tools-version: 6.1
// The folder list follows the data: document -> timeline -> (render | mixer) -> (player | audio output | files).
import PackageDescription

let package = Package(
    name: "Diorama",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "diorama", targets: ["diorama"]),
        // Loaded with LD_PRELOAD by `diorama bench allocations` (which starts itself again with it): counts mallocs.
        .library(name: "DioramaMallocCounter", type: .dynamic, targets: ["CDioramaMallocCounter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift: files read only when regular (a pipe or device never blocks a read), output that reports a
        // full disk instead of trapping, and files written whole (a hidden partial file renamed into place).
        .target(name: "DioramaFiles"),
        // Pure Swift: the scenes.json document, its parser with source locations, and validation.
        .target(name: "DioramaDocument", dependencies: ["DioramaFiles"]),
        // Pure Swift: curves, animation timing, snapshots, particles, the playlist clock (scene starts, the scene at a time,
        // progress), the cue schedule and the playlist sequencer.
        .target(name: "DioramaTimeline", dependencies: ["DioramaDocument"]),
        // Pure Swift DSP: voices, the mixer (with the listener's volume before its limiter), the lock-free command queue,
        // and AudioFormat: the one sample rate and channel count every sound module refers to.
        .target(name: "DioramaMixer"),
        // cairo/pango: a snapshot becomes pixels (PaintRoute.swift says who paints each leaf and why); PNG files (zlib).
        .target(name: "DioramaRender", dependencies: ["DioramaFiles", "DioramaTimeline", "DioramaVectorArt", "DioramaLottie", "CCairo", "CPixman", "CZlib"]),
        // librsvg: SVG files checked for hostile content, then drawn as vectors (a whole file or one element by id) onto cairo.
        .target(name: "DioramaVectorArt", dependencies: ["DioramaFiles", "CRsvg", "CCairo"]),
        // rlottie: Lottie animations rendered frame by frame into premultiplied ARGB32 pixels, for DioramaRender.
        .target(name: "DioramaLottie", dependencies: ["CRlottie"]),
        // libsndfile/libsamplerate/ALSA: the sound bank, WAV and FLAC output, the offline mix, and (Output/) the device,
        // its pacing, the real-time thread, the audio clock and the player's sound output. libebur128: each scene's
        // loudness (EBU R128) and true peak, measured on its offline mix, and the gain that meets a playlist's target.
        .target(name: "DioramaAudio", dependencies: ["DioramaFiles", "DioramaTimeline", "DioramaMixer", "CSndfile", "CSampleRate", "CAlsa",
                                                     "CEbur128", "CDioramaShims"]),
        // SDL2: the window, the story-viewer interface, live reload; the show's state and its decisions (Show/, no SDL);
        // the show clock shared over Ableton Link (DioramaLink).
        .target(name: "DioramaPlayer", dependencies: ["DioramaFiles", "DioramaRender", "DioramaAudio", "DioramaLink", "CSDL", "CDioramaShims"]),
        // The ffmpeg program (a child process fed through pipes): frames from the renderer and the offline mix become MP4, WebM or GIF.
        .target(name: "DioramaExport", dependencies: ["DioramaRender", "DioramaAudio"]),
        // Pure Swift DSP: the recipes of the project's own sounds, which `diorama synthesize-media` writes to media/.
        .target(name: "DioramaSynthesis", dependencies: ["DioramaTimeline", "DioramaMixer"]),
        // liblo: show control over OSC (UDP): commands for the player's frame loop, status feedback to a controller.
        // The mixer only for the volume's range, which the player's keys share.
        .target(name: "DioramaShowControl", dependencies: ["DioramaMixer", "COsc"]),
        // Ableton Link (header-only C++) behind a C header: tempo, beat and phase shared with peers on the network.
        .target(
            name: "CLinkBridge",
            cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
            linkerSettings: [.linkedLibrary("pthread")]
        ),
        // A Swift LinkSession over CLinkBridge: players on several machines share one show time.
        .target(name: "DioramaLink", dependencies: ["CLinkBridge"]),
        // Headless timing tests of a playlist: its cues heard on their samples, expected values, golden frames.
        .target(name: "DioramaVerify", dependencies: ["DioramaFiles", "DioramaDocument", "DioramaTimeline", "DioramaRender", "DioramaMixer", "DioramaAudio"]),
        // The command line; its Bench/ folder holds every benchmark `diorama bench` runs.
        .executableTarget(
            name: "diorama",
            dependencies: [
                "DioramaDocument", "DioramaTimeline", "DioramaRender", "DioramaVectorArt", "DioramaMixer", "DioramaAudio", "DioramaPlayer",
                "DioramaSynthesis", "DioramaLottie", "DioramaVerify", "DioramaExport", "DioramaShowControl", "DioramaLink",
                "DioramaFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Thin C layers: one system library per pkg-config module, and one C target for macros and variadics.
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // pixman (cairo's own pixel library): composites our fills, shadows and blurs draw, rotated art resampled with one
        // transform for the whole frame; its header also holds the renderer's unchecked float-to-integer truncation.
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CAlsa", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSDL", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CRlottie", pkgConfig: "rlottie", providers: [.apt(["librlottie-dev"])]),
        .systemLibrary(name: "COsc", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // Xlib (libx11-dev, which libsdl2-dev depends on): whether a window manager runs, and the window's real geometry.
        .target(name: "CDioramaShims", dependencies: ["CAlsa", "CSDL", "CCairo"], linkerSettings: [.linkedLibrary("X11")]),
        // A counting malloc for the allocation benchmark only; nothing links it (see the product above).
        .target(name: "CDioramaMallocCounter"),

        // Shared fixtures and helpers for the test targets, and the player's stand-ins for time and sound (EmbeddedPlayer.swift).
        .target(name: "DioramaTestSupport", dependencies: ["DioramaDocument", "DioramaTimeline", "DioramaMixer", "DioramaAudio", "DioramaPlayer"],
                path: "Tests/DioramaTestSupport"),
        .testTarget(name: "DioramaDocumentTests", dependencies: ["DioramaDocument", "DioramaTimeline", "DioramaTestSupport"], resources: [.copy("Corpus")]),
        .testTarget(name: "DioramaTimelineTests", dependencies: ["DioramaTimeline", "DioramaTestSupport"]),
        .testTarget(name: "DioramaMixerTests", dependencies: ["DioramaMixer", "DioramaTestSupport"]),
        // Golden PNGs are read from beside the test source by path, not bundled.
        .testTarget(name: "DioramaRenderTests", dependencies: ["DioramaRender", "DioramaVectorArt", "DioramaTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "DioramaLottieTests", dependencies: ["DioramaLottie", "DioramaTestSupport"]),
        // Fixtures: the music box written by hand, read by path beside the example it is measured against.
        .testTarget(name: "DioramaAudioTests", dependencies: ["DioramaAudio", "DioramaTimeline", "DioramaSynthesis", "DioramaTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "DioramaSynthesisTests", dependencies: ["DioramaSynthesis", "DioramaAudio", "DioramaTestSupport"]),
        .testTarget(name: "DioramaPlayerTests", dependencies: ["DioramaPlayer", "DioramaTestSupport"]),
        .testTarget(name: "DioramaVerifyTests", dependencies: ["DioramaVerify", "DioramaAudio", "DioramaMixer", "DioramaTestSupport"]),
        .testTarget(name: "DioramaShowControlTests", dependencies: ["DioramaShowControl", "DioramaMixer", "COsc"]),
        .testTarget(name: "DioramaLinkTests", dependencies: ["DioramaLink", "DioramaTestSupport"]),
        .testTarget(name: "DioramaCLITests", dependencies: ["DioramaTestSupport"], exclude: ["Fixtures"]),
        // A seeded mutation fuzzer of scenes files, SVG, Lottie and OSC packets, in the ordinary test build (FuzzTests.swift).
        .testTarget(name: "DioramaFuzzTests", dependencies: [
            "DioramaDocument", "DioramaTimeline", "DioramaRender", "DioramaVectorArt", "DioramaLottie", "DioramaShowControl",
            "DioramaTestSupport", "CCairo", "COsc",
        ]),
    ],
    swiftLanguageModes: [.v6],
    // CLinkBridge: Link needs C++14 or later.
    cxxLanguageStandard: .cxx17
)
