/**
 * The calls' timer (started and stopped with the server, as the outgoing-webhook worker): a
 * participant whose page has sent nothing for `callHeartbeatTimeoutMs` (8.5 s) leaves, ringing
 * unanswered for `callRingTimeoutMs` (30 s) is missed, and empty rooms older than 30 days are
 * dropped from call_rooms.json (hourly). A graceful stop keeps who is in a call (`live` in the
 * file) so their pages, which keep heartbeating, keep their places after the next start.
 */
import type { App } from '../context.js';
import { CALL_LIMITS, roomRecord, type LiveParticipant } from '../lib/calls/rooms.js';
import { commit } from './commit.js';
import { endMissedRings, removeParticipant } from './hearth-calls.js';

const PRUNE_EVERY_MS = 3600_000;

/** One pass: silent pages leave, unanswered ringing is missed, old empty rooms go. */
export function sweepCalls(app: App): void {
  const now = app.clock.now();
  for (const live of [...app.calls.rooms.values()]) {
    for (const p of [...live.participants.values()]) {
      if (now - p.last_seen > app.config.callHeartbeatTimeoutMs) removeParticipant(app, roomRecord(app, live.room_id), live, p.client_id);
    }
  }
  endMissedRings(app, now);
  if (now - app.calls.lastPrune >= PRUNE_EVERY_MS) {
    app.calls.lastPrune = now;
    void pruneRooms(app, now).catch((err: unknown) => app.log.warn('old call rooms not dropped', { error: String(err) }));
  }
}

async function pruneRooms(app: App, now: number): Promise<void> {
  const old = (r: { room_id: string; created: number }) => now - r.created > CALL_LIMITS.roomMaxAgeMs && !app.calls.rooms.has(r.room_id);
  if (!app.store.callRooms.data.rooms.some(old)) return;
  await commit(app, (tx) => {
    app.store.callRooms.data.rooms = app.store.callRooms.data.rooms.filter((r) => !old(r));
    tx.touch(app.store.callRooms);
  });
}

/** Starts the timer, then puts back who was in a call at the last graceful stop (each with a fresh heartbeat deadline). */
export async function startCalls(app: App): Promise<void> {
  stopCallTimer(app);
  app.calls.timer = setInterval(() => sweepCalls(app), app.config.callSweepMs);
  app.calls.timer.unref();
  const saved = app.store.callRooms.data.live;
  if (saved) {
    const now = app.clock.now();
    for (const s of saved) {
      if (!roomRecord(app, s.room_id) || !app.store.users.get(s.user_id)?.is_active) continue;
      let live = app.calls.rooms.get(s.room_id);
      if (!live) app.calls.rooms.set(s.room_id, (live = { room_id: s.room_id, participants: new Map(), ringing: null }));
      const p: LiveParticipant = { ...s, last_seen: now, window_start: now, signals: 0, ops: 0 };
      live.participants.set(p.client_id, p);
    }
    await commit(app, (tx) => {
      delete app.store.callRooms.data.live;
      tx.touch(app.store.callRooms);
    });
  }
}

export function stopCallTimer(app: App): void {
  if (app.calls.timer) clearInterval(app.calls.timer);
  app.calls.timer = null;
}

/** At a graceful stop (every request done): who is in a call, for the next start. */
export async function saveLiveCalls(app: App): Promise<void> {
  const live = [...app.calls.rooms.values()].flatMap((room) =>
    [...room.participants.values()].map((p) => ({
      room_id: room.room_id,
      client_id: p.client_id,
      user_id: p.user_id,
      queue_id: p.queue_id,
      audio: p.audio,
      video: p.video,
      screen: p.screen,
    })),
  );
  if (live.length === 0) return;
  await commit(app, (tx) => {
    app.store.callRooms.data.live = live;
    tx.touch(app.store.callRooms);
  });
}
