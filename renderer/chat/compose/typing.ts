/**
 * Sending typing notifications as Zulip clients do: "start" when typing begins and again
 * every 10 seconds while it goes on, "stop" after 5 seconds without a key or on send.
 */
import { post } from '../store/api.js';

export type TypingTarget = { kind: 'channel'; streamId: number; topic: string } | { kind: 'dm'; to: number[] };

const START_EVERY_MS = 10_000;
const STOP_AFTER_MS = 5_000;

const state: { key: string; lastStart: number; stopTimer?: ReturnType<typeof setTimeout> } = { key: '', lastStart: 0 };

const keyOf = (t: TypingTarget) => (t.kind === 'dm' ? `dm:${t.to.join(',')}` : `c:${t.streamId}:${t.topic}`);

const params = (t: TypingTarget, op: 'start' | 'stop') =>
  t.kind === 'dm' ? { type: 'direct', op, to: t.to } : { type: 'stream', op, stream_id: t.streamId, topic: t.topic };

export function startTyping(t: TypingTarget): void {
  const key = keyOf(t);
  const now = Date.now();
  if (key !== state.key || now - state.lastStart > START_EVERY_MS) {
    state.key = key;
    state.lastStart = now;
    post('/typing', params(t, 'start')).catch(() => undefined);
  }
  clearTimeout(state.stopTimer);
  state.stopTimer = setTimeout(() => stopTyping(t), STOP_AFTER_MS);
}

export function stopTyping(t: TypingTarget): void {
  clearTimeout(state.stopTimer);
  if (state.key !== keyOf(t)) return;
  state.key = '';
  state.lastStart = 0;
  post('/typing', params(t, 'stop')).catch(() => undefined);
}
