/**
 * This browser's own presence, as Zulip's web app reports it: `POST /users/me/presence`
 * after each register, every `server_presence_ping_interval_seconds` (60 s), and at once when
 * the page gains or loses focus or is hidden: "active" while the page is in view and focused
 * and someone used it in the last five minutes, else "idle". The answer (slim presence rows
 * of everyone) keeps the store's presence fresh, since the server only pushes events when
 * someone comes online. A clock signal ticks so "active" fades to "idle" and "offline".
 * Also fills in one's time zone from the browser when the account has none yet.
 */
import { patch, post } from '../store/api.js';
import { onReload } from '../store/events.js';
import { notePresences } from '../store/people-state.js';
import { session } from '../store/session.js';
import { store } from '../store/state.js';

const IDLE_AFTER_MS = 5 * 60_000;

const me = { started: false, timer: 0 as ReturnType<typeof setTimeout> | 0, lastInput: Date.now(), inputSinceSent: true, sent: '' };

const isActive = () => document.visibilityState === 'visible' && document.hasFocus() && Date.now() - me.lastInput < IDLE_AFTER_MS;

/** Reports now and schedules the next report. */
async function report(): Promise<void> {
  clearTimeout(me.timer);
  me.timer = setTimeout(() => void report(), store.presencePingInterval.value * 1000);
  if (!session.value || !store.ready.value) return;
  const status = isActive() ? 'active' : 'idle';
  const newInput = me.inputSinceSent;
  me.inputSinceSent = false;
  me.sent = status;
  try {
    const res = await post<{ presences?: Record<string, { active_timestamp: number; idle_timestamp: number }>; server_timestamp?: number }>(
      '/users/me/presence',
      { status, new_user_input: newInput, slim_presence: true },
    );
    notePresences(res.presences, res.server_timestamp);
  } catch {
    /* offline: the next ping tries again */
  }
}

/** Reports at once when the state changed (focus, blur, hidden, back from idle). */
function changed(): void {
  const status = isActive() ? 'active' : 'idle';
  if (status !== me.sent) void report();
}

function input(): void {
  const wasIdle = Date.now() - me.lastInput >= IDLE_AFTER_MS;
  me.lastInput = Date.now();
  me.inputSinceSent = true;
  if (wasIdle) changed();
}

/** Accounts made without a time zone get the browser's (Zulip sets it at sign-up). */
function fillTimezone(): void {
  const self = store.users.value.get(store.selfId.value);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (self && !self.timezone && !store.userSettings.value.timezone && tz) patch('/settings', { timezone: tz }).catch(() => undefined);
}

function startPresence(): void {
  void report();
  fillTimezone();
  if (me.started) return;
  me.started = true;
  window.addEventListener('focus', changed);
  window.addEventListener('blur', changed);
  document.addEventListener('visibilitychange', changed);
  for (const t of ['keydown', 'pointerdown', 'wheel', 'touchstart']) window.addEventListener(t, input, { passive: true, capture: true });
  setInterval(() => {
    store.now.value = Date.now() / 1000 + store.clockSkew.value;
    if (me.sent === 'active' && !isActive()) changed();
  }, 15_000);
}

onReload.add(startPresence);
