/**
 * The JSON of a woken poll's events. One message event reaches every recipient's queue, and
 * its `message` dictionary is one shared object per variant (server/register/messages.ts,
 * never changed once made): its text is made once and reused for every queue, instead of once
 * per poll. The rest of each event (type, flags, its queue's id) is small and written per queue.
 */
import type { ClientEvent } from './queue.js';

const text = new WeakMap<object, string>();

function jsonOf(o: object): string {
  let t = text.get(o);
  if (t === undefined) text.set(o, (t = JSON.stringify(o)));
  return t;
}

/** `[...]` of the events with their ids, as JSON.stringify(contents()) would give (keys may come in another order). */
export function eventsJson(events: readonly { id: number; event: ClientEvent }[]): string {
  const parts = new Array<string>(events.length);
  for (let i = 0; i < events.length; i++) {
    const { id, event } = events[i]!;
    const message = (event as { message?: unknown }).message;
    if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
      const { message: _m, ...rest } = event as Record<string, unknown>;
      const head = JSON.stringify({ ...rest, id });
      parts[i] = `${head.slice(0, -1)},"message":${jsonOf(message)}}`;
    } else {
      parts[i] = JSON.stringify({ ...event, id });
    }
  }
  return `[${parts.join(',')}]`;
}
