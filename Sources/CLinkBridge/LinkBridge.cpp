// Ableton Link behind the C functions of LinkBridge.h. Only the app-thread session-state API is used.
#include "LinkBridge.h"

#include <ableton/Link.hpp>

#include <chrono>
#include <new>

struct DLinkSession {
    explicit DLinkSession(double bpm) : link(bpm) {}
    ableton::Link link;
};

namespace {
std::chrono::microseconds micros(int64_t value) { return std::chrono::microseconds(value); }
}

extern "C" {

DLinkSession *dlink_create(double bpm) {
    try {
        return new DLinkSession(bpm);
    } catch (...) {
        // Link's constructor starts its network thread, which can throw like any allocation:
        // no exception may cross into Swift.
        return nullptr;
    }
}

void dlink_destroy(DLinkSession *session) { delete session; }

void dlink_enable(DLinkSession *session, bool enabled) { session->link.enable(enabled); }

bool dlink_is_enabled(const DLinkSession *session) { return session->link.isEnabled(); }

void dlink_enable_start_stop_sync(DLinkSession *session, bool enabled) {
    session->link.enableStartStopSync(enabled);
}

bool dlink_is_start_stop_sync_enabled(const DLinkSession *session) {
    return session->link.isStartStopSyncEnabled();
}

uint64_t dlink_num_peers(const DLinkSession *session) { return session->link.numPeers(); }

int64_t dlink_clock_micros(const DLinkSession *session) { return session->link.clock().micros().count(); }

DLinkState dlink_state_at(const DLinkSession *session, int64_t time, double quantum) {
    const auto state = session->link.captureAppSessionState();
    DLinkState result;
    result.beat = state.beatAtTime(micros(time), quantum);
    result.phase = state.phaseAtTime(micros(time), quantum);
    result.tempo = state.tempo();
    result.isPlaying = state.isPlaying();
    result.timeForIsPlaying = state.timeForIsPlaying().count();
    return result;
}

double dlink_beat_at_time(const DLinkSession *session, int64_t time, double quantum) {
    return session->link.captureAppSessionState().beatAtTime(micros(time), quantum);
}

double dlink_phase_at_time(const DLinkSession *session, int64_t time, double quantum) {
    return session->link.captureAppSessionState().phaseAtTime(micros(time), quantum);
}

double dlink_tempo(const DLinkSession *session) { return session->link.captureAppSessionState().tempo(); }

bool dlink_is_playing(const DLinkSession *session) { return session->link.captureAppSessionState().isPlaying(); }

int64_t dlink_time_for_is_playing(const DLinkSession *session) {
    return session->link.captureAppSessionState().timeForIsPlaying().count();
}

void dlink_set_tempo(DLinkSession *session, double bpm, int64_t time) {
    auto state = session->link.captureAppSessionState();
    state.setTempo(bpm, micros(time));
    session->link.commitAppSessionState(state);
}

void dlink_force_beat_at_time(DLinkSession *session, double beat, int64_t time, double quantum) {
    auto state = session->link.captureAppSessionState();
    state.forceBeatAtTime(beat, micros(time), quantum);
    session->link.commitAppSessionState(state);
}

void dlink_set_is_playing(DLinkSession *session, bool playing, int64_t time) {
    auto state = session->link.captureAppSessionState();
    state.setIsPlaying(playing, micros(time));
    session->link.commitAppSessionState(state);
}

void dlink_set_is_playing_and_force_beat_at_time(DLinkSession *session, bool playing, int64_t time, double beat,
                                                 double quantum) {
    auto state = session->link.captureAppSessionState();
    state.setIsPlaying(playing, micros(time));
    state.forceBeatAtTime(beat, micros(time), quantum);
    session->link.commitAppSessionState(state);
}

}
