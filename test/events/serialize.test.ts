/**
 * A woken poll's events are written from shared message text (server/events/serialize.ts):
 * the JSON must parse to exactly what the queue's contents() gives, for message events with
 * and without a local id and for other events, and a shared message object is serialised once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventsJson } from '../../server/events/serialize.js';
import type { ClientEvent } from '../../server/events/queue.js';

describe('events JSON for woken polls', () => {
  it('parses to the events with their ids, sharing each message object’s text', () => {
    const message = { id: 7, content: '<p>hi "there"</p>', subject: 'ü', reactions: [] };
    const events = [
      { id: 0, event: { type: 'message', message, flags: ['read'] } as unknown as ClientEvent },
      { id: 1, event: { type: 'message', message, flags: [], local_message_id: '12.5' } as unknown as ClientEvent },
      { id: 2, event: { type: 'typing', op: 'start', sender: { user_id: 3 } } as unknown as ClientEvent },
      { id: 3, event: { type: 'heartbeat' } as unknown as ClientEvent },
    ];
    const json = eventsJson(events);
    assert.deepEqual(JSON.parse(json), events.map(({ id, event }) => ({ ...event, id })));
    assert.equal(json.split('"content"').length - 1, 2, 'the message text appears once per event');
    assert.equal(eventsJson([]), '[]');
  });
});
