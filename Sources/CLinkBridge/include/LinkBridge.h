// A C face for Ableton Link (header-only C++), so Swift never sees C++.
// Times are microseconds on Link's clock (CLOCK_MONOTONIC_RAW on Linux): read it with dlink_clock_micros.
// Every session-state call captures the app-thread session state, reads or changes it, and (for changes) commits it
// in the same call: the app-thread API, safe from any thread but never meant for a real-time audio callback.
#ifndef DIORAMA_LINK_BRIDGE_H
#define DIORAMA_LINK_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque Link instance.
typedef struct DLinkSession DLinkSession;

/// One capture of the session state, read at one time on Link's clock.
typedef struct DLinkState {
    double beat;
    double phase;
    double tempo;
    bool isPlaying;
    int64_t timeForIsPlaying;
} DLinkState;

/// A new, disabled Link instance with this tempo (beats per minute); NULL if Link could not be created.
DLinkSession *_Nullable dlink_create(double bpm);
void dlink_destroy(DLinkSession *_Nonnull session);

void dlink_enable(DLinkSession *_Nonnull session, bool enabled);
bool dlink_is_enabled(const DLinkSession *_Nonnull session);
void dlink_enable_start_stop_sync(DLinkSession *_Nonnull session, bool enabled);
bool dlink_is_start_stop_sync_enabled(const DLinkSession *_Nonnull session);
/// Other Link instances in the session (this one excluded).
uint64_t dlink_num_peers(const DLinkSession *_Nonnull session);
/// Now on Link's clock, in microseconds.
int64_t dlink_clock_micros(const DLinkSession *_Nonnull session);

/// Beat, phase (in [0, quantum)), tempo and transport, all from one capture.
DLinkState dlink_state_at(const DLinkSession *_Nonnull session, int64_t micros, double quantum);
double dlink_beat_at_time(const DLinkSession *_Nonnull session, int64_t micros, double quantum);
double dlink_phase_at_time(const DLinkSession *_Nonnull session, int64_t micros, double quantum);
double dlink_tempo(const DLinkSession *_Nonnull session);
bool dlink_is_playing(const DLinkSession *_Nonnull session);
int64_t dlink_time_for_is_playing(const DLinkSession *_Nonnull session);

/// Changes the tempo from `micros` on, for every peer; commits.
void dlink_set_tempo(DLinkSession *_Nonnull session, double bpm, int64_t micros);
/// Re-maps the shared timeline so `beat` falls at `micros` (for every peer); commits.
void dlink_force_beat_at_time(DLinkSession *_Nonnull session, double beat, int64_t micros, double quantum);
/// Starts or stops the shared transport at `micros`; commits.
void dlink_set_is_playing(DLinkSession *_Nonnull session, bool playing, int64_t micros);
/// Starts or stops the transport at `micros` and forces `beat` there, in one commit.
void dlink_set_is_playing_and_force_beat_at_time(DLinkSession *_Nonnull session, bool playing, int64_t micros,
                                                 double beat, double quantum);

#ifdef __cplusplus
}
#endif

#endif
