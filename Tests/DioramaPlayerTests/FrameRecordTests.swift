@testable import DioramaPlayer
import Testing

/// The frame loop's arithmetic, without a window: how far ahead of the heard clock to draw, and how long to wait.
@Suite struct FrameRecordTests {
    @Test func thePresentationLeadAveragesWhatPresentingTookUpToATenthOfASecond() {
        var frames = FrameRecord()
        frames.observePresentation(heardBefore: 1_000, heardAfter: 1_800, sampleRate: 48_000)
        #expect(frames.presentationLead == 160)
        frames.observePresentation(heardBefore: 2_000, heardAfter: 2_000, sampleRate: 48_000)
        #expect(frames.presentationLead == 160, "a clock that did not move teaches nothing")
        for _ in 0..<100 { frames.observePresentation(heardBefore: 0, heardAfter: 48_000, sampleRate: 48_000) }
        #expect(frames.presentationLead == 4_800)
    }

    @Test func aLoopWithVsyncOrAStillPictureWaitsForTheRestOfASixtiethOfASecond() {
        var frames = FrameRecord()
        #expect(frames.pacingDelay(now: 1, vsync: true) == nil, "no frame started yet")
        frames.start = 10
        let interval = 1.0 / 60 * 0.97
        #expect(frames.pacingDelay(now: 10.004, vsync: true).map { abs($0 - (interval - 0.004)) < 1e-12 } == true)
        #expect(frames.pacingDelay(now: 10.02, vsync: true) == nil, "the frame took longer already")
        #expect(frames.pacingDelay(now: 10.004, vsync: false) == nil, "--no-vsync: as fast as they can")
        frames.lastSkipped = true
        #expect(frames.pacingDelay(now: 10.004, vsync: false) != nil, "a still picture is not drawn as fast as it can be")
    }
}
