/**
 * Hearth's own calls (issue 32): the provider, rooms, signalling through the event queues, ringing,
 * limits, access by conversation, the heartbeat timeout and a restart mid-call. The clock is the
 * server's (offset by the tests), so timeouts are reached without waiting for them.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join as joinPath } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doDeactivateUser } from '../../server/actions/users-activation.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { assertError, startTestServer, type Client, type Person, type TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

type Ev = Record<string, unknown> & { type: string; op?: string };

const clock = { offset: 0, now: () => Date.now() + clock.offset };
let ts: TestServer;
let ann: Person;
let ben: Person;
let cat: Person;
let dan: Person;
let ops: number;
let general: number;

/** A page's event queue for calls: `read()` answers what arrived since the last read. */
async function page(client: Client) {
  const reg = await client.post('/register', { event_types: ['hearth_call'] });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  let last = reg.body.last_event_id as number;
  return {
    queueId: reg.body.queue_id as string,
    async read(): Promise<Ev[]> {
      const res = await client.get('/events', { queue_id: reg.body.queue_id, last_event_id: last, dont_block: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const events = res.body.events as (Ev & { id: number })[];
      if (events.length) last = events[events.length - 1]!.id;
      return events.filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...e }) => e as Ev);
    },
  };
}

let n = 0;
const clientId = () => `page-${++n}-abcdef`;
const roomOf = (url: string) => url.split('/').pop()!;

async function createRoom(client: Client, params: Record<string, unknown>): Promise<string> {
  const res = await client.post('/calls/videocall/create', { room_name: 'x', ...params } as never);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return roomOf(res.body.url);
}

async function join(client: Client, room: string, q: { queueId: string }, id = clientId(), extra: Record<string, unknown> = {}) {
  const res = await client.post(`/calls/hearth/${room}/join`, { client_id: id, queue_id: q.queueId, audio: true, video: true, ...extra } as never);
  return { res, id };
}

before(async () => {
  ts = await startTestServer({ clock, config: { callSweepMs: 30 } });
  [ann, ben, cat, dan] = await ts.people('Ann', 'Ben', 'Cat', 'Dan');
  ops = await createChannel(ts, ann.client, 'ops', { invite_only: true, principals: [ann.account.id, ben.account.id, cat.account.id] });
  general = await createChannel(ts, ann.client, 'general', { principals: [ann.account.id, ben.account.id] });
});
after(async () => ts.stop());

describe('the Hearth provider', () => {
  it('is the default for a new organization, listed in register with the ICE servers (none)', async () => {
    const reg = await ann.client.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_video_chat_provider, 100);
    assert.deepEqual(reg.body.realm_available_video_chat_providers.hearth, { name: 'Hearth (on this network)', id: 100 });
    assert.deepEqual(reg.body.realm_hearth_call_ice_servers, []);
  });

  it('POST /calls/videocall/create makes a durable room tied to its conversation; the link opens the chat page', async () => {
    const res = await ann.client.post('/calls/videocall/create', { room_name: 'ops', stream_id: ops, topic: 'deploy' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.url, new RegExp(`^${ts.url}/calls/hearth/[A-Za-z0-9_-]{21}$`));
    const file = JSON.parse(await readFile(joinPath(ts.dataDir, 'call_rooms.json'), 'utf8'));
    const stored = file.rooms.find((r: { room_id: string }) => r.room_id === roomOf(res.body.url));
    assert.deepEqual(stored.conversation, { type: 'stream', stream_id: ops, topic: 'deploy' });
    assert.equal(stored.is_video, true);
    const voice = await ann.client.post('/calls/videocall/create', { room_name: 'x', voice_only: true, user_ids: [ben.account.id] });
    assert.equal(voice.status, 200);
    const pageRes = await fetch(res.body.url);
    assert.equal(pageRes.status, 200);
    assert.match(await pageRes.text(), /<div id="app">/);
    assert.equal((await fetch(`${ts.url}/calls/hearth/not-a-room`, { headers: { accept: 'application/json' } })).status, 404);
  });

  it('refuses a call with no conversation, a channel one cannot read, an unknown person', async () => {
    assertError(await ann.client.post('/calls/videocall/create', { room_name: 'x' }), /belongs to a conversation/);
    assertError(await dan.client.post('/calls/videocall/create', { room_name: 'x', stream_id: ops, topic: 't' }), 'Invalid channel ID');
    assertError(await ann.client.post('/calls/videocall/create', { room_name: 'x', user_ids: [99999] }), 'Invalid user ID 99999');
    assertError(await ann.client.post('/calls/videocall/create', { room_name: 'x', stream_id: ops }), "Missing 'topic' argument", 'REQUEST_VARIABLE_MISSING');
  });
});

describe('signalling', () => {
  it('three people join, signals reach only their target, state and leave reach the others, the room ends', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'standup' });
    const [qa, qb, qc, qd] = await Promise.all([page(ann.client), page(ben.client), page(cat.client), page(dan.client)]);
    const a = await join(ann.client, room, qa);
    assert.equal(a.res.status, 200, JSON.stringify(a.res.body));
    assert.deepEqual(a.res.body.participants, []);
    assert.deepEqual(a.res.body.room, { room_id: room, is_video: true, conversation: { type: 'stream', stream_id: ops, topic: 'standup' } });
    assert.deepEqual(a.res.body.ice_servers, []);
    assert.equal(a.res.body.max_participants, 6);
    const b = await join(ben.client, room, qb);
    assert.deepEqual(b.res.body.participants.map((p: { client_id: string }) => p.client_id), [a.id]);
    const c = await join(cat.client, room, qc, undefined, { video: false });
    assert.deepEqual(
      c.res.body.participants.map((p: { user_id: number }) => p.user_id),
      [ann.account.id, ben.account.id],
    );
    const joinsA = (await qa.read()).filter((e) => e.op === 'join');
    assert.deepEqual(joinsA.map((e) => (e.participant as { client_id: string }).client_id), [b.id, c.id]);
    assert.deepEqual(joinsA[1]!.participant, { client_id: c.id, user_id: cat.account.id, full_name: 'Cat', audio: true, video: false, screen: false });
    assert.deepEqual((await qb.read()).filter((e) => e.op === 'join').length, 1);
    assert.deepEqual((await qc.read()).filter((e) => e.op === 'join'), []);
    // Dan cannot read #ops: no `room` ops for him.
    assert.deepEqual(await qd.read(), []);

    const sig = await cat.client.post(`/calls/hearth/${room}/signal`, { client_id: c.id, to: a.id, kind: 'offer', data: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1' });
    assert.equal(sig.status, 200, JSON.stringify(sig.body));
    assert.deepEqual((await qa.read()).filter((e) => e.op === 'signal'), [
      { type: 'hearth_call', op: 'signal', room_id: room, from: c.id, from_user_id: cat.account.id, kind: 'offer', data: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1' },
    ]);
    assert.deepEqual((await qb.read()).filter((e) => e.op === 'signal'), []);
    assert.deepEqual((await qc.read()).filter((e) => e.op === 'signal'), []);

    assert.equal((await ben.client.post(`/calls/hearth/${room}/state`, { client_id: b.id, audio: false, video: true, screen: true })).status, 200);
    for (const q of [qa, qc]) {
      assert.deepEqual((await q.read()).filter((e) => e.op === 'state'), [
        { type: 'hearth_call', op: 'state', room_id: room, client_id: b.id, audio: false, video: true, screen: true },
      ]);
    }
    const state = await dan.client.get(`/calls/hearth/${room}`);
    assertError(state, 'You cannot join this call.');
    const seen = await ann.client.get(`/calls/hearth/${room}`);
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.participants.map((p: { screen: boolean }) => p.screen), [false, true, false]);

    for (const [p, id] of [[ann, a.id], [ben, b.id], [cat, c.id]] as const) {
      assert.equal((await p.client.post(`/calls/hearth/${room}/leave`, { client_id: id })).status, 200);
    }
    const tail = await qa.read();
    assert.deepEqual(tail.filter((e) => e.op === 'room').map((e) => e.participants), [[ben.account.id, cat.account.id], [cat.account.id], []]);
    assert.deepEqual((await qc.read()).filter((e) => e.op === 'leave').map((e) => e.client_id), [a.id, b.id]);
    assert.equal(ts.app.calls.rooms.has(room), false);
    // The room's link keeps working.
    assert.deepEqual((await ann.client.get(`/calls/hearth/${room}`)).body.participants, []);
  });

  it('bad input: not in the call, no such participant, malformed IDs and kinds, unknown room, a stranger queue', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'bad' });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const a = await join(ann.client, room, qa);
    assertError(await ann.client.post(`/calls/hearth/${room}/signal`, { client_id: 'nobody-here', to: a.id, kind: 'offer', data: 'x' }), 'You are not in this call.');
    assertError(await ann.client.post(`/calls/hearth/${room}/signal`, { client_id: a.id, to: 'nobody-here', kind: 'offer', data: 'x' }), 'No such participant.');
    assertError(await ben.client.post(`/calls/hearth/${room}/heartbeat`, { client_id: a.id }), 'You are not in this call.');
    assertError(await ann.client.post(`/calls/hearth/${room}/signal`, { client_id: a.id, to: a.id, kind: 'bogus', data: 'x' }), /Invalid kind/);
    assertError((await join(ann.client, room, qa, 'short')).res, /Invalid client_id/);
    assert.equal((await join(ann.client, room, qb)).res.body.code, 'BAD_EVENT_QUEUE_ID');
    const unknown = await ann.client.post('/calls/hearth/AAAAAAAAAAAAAAAAAAAAA/join', { client_id: clientId(), queue_id: qa.queueId });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.msg, 'No such call.');
    assert.equal((await ann.client.post('/calls/hearth/x/leave', { client_id: a.id })).status, 404);
    assert.equal((await ann.client.post(`/calls/hearth/${room}/leave`, { client_id: a.id })).status, 200);
  });

  it('limits: SDP and candidate sizes, 400 signals a minute, a full room', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'limits' });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const a = await join(ann.client, room, qa);
    const b = await join(ben.client, room, qb);
    const send = (kind: string, data: string) => ann.client.post(`/calls/hearth/${room}/signal`, { client_id: a.id, to: b.id, kind, data });
    assertError(await send('candidate', 'c'.repeat(2049)), /at most 2048 bytes/);
    assertError(await send('offer', 'o'.repeat(64 * 1024 + 1)), /at most 65536 bytes/);
    assert.equal((await send('offer', 'o'.repeat(64 * 1024))).status, 200);
    for (let i = 1; i < 400; i++) assert.equal((await send('candidate', `candidate:${i}`)).status, 200);
    const over = await send('candidate', 'one too many');
    assert.equal(over.status, 429);
    assert.equal(over.body.code, 'RATE_LIMIT_HIT');
    const toB = (await qb.read()).filter((e) => e.op === 'signal');
    assert.equal(toB.length, 400);
    // Six in a video room (one person may have several pages), then "This call is full."
    const pages = await Promise.all([1, 2, 3, 4].map(() => page(cat.client)));
    for (const q of pages) assert.equal((await join(cat.client, room, q)).res.status, 200);
    assertError((await join(cat.client, room, await page(cat.client))).res, 'This call is full.');
    ts.app.calls.rooms.delete(room);
  });
});

describe('access', () => {
  it('refuses someone who cannot read the channel, a guest without access, and a deactivated user', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'private' });
    const openRoom = await createRoom(ann.client, { stream_id: general, topic: 'open' });
    const qd = await page(dan.client);
    assertError((await join(dan.client, room, qd)).res, 'You cannot join this call.');
    // Dan, a member, reads the public channel: he may join there.
    const d = await join(dan.client, openRoom, qd);
    assert.equal(d.res.status, 200);
    const gus = await ts.addUser('Gus', 600);
    const guest = ts.client(gus);
    const qg = await page(guest);
    assertError((await join(guest, openRoom, qg)).res, 'You cannot join this call.');
    assert.equal((await ann.client.post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [gus.id] })).status, 200);
    assert.equal((await join(guest, openRoom, qg)).res.status, 200);
    const dm = await createRoom(ann.client, { user_ids: [ben.account.id] });
    assertError((await join(cat.client, dm, await page(cat.client))).res, 'You cannot join this call.');
    const eve = await ts.addUser('Eve');
    const eveClient = ts.client(eve);
    const qe = await page(eveClient);
    await doDeactivateUser(ts.app, ts.app.store.users.get(eve.id)!);
    assert.equal((await join(eveClient, openRoom, qe)).res.status, 401);
    ts.app.calls.rooms.delete(openRoom);
  });
});

describe('timeouts and ringing', () => {
  it('a page silent past the timeout (8.5 s) leaves; the others hear it', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'net' });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const a = await join(ann.client, room, qa);
    const b = await join(ben.client, room, qb);
    clock.offset += 6000;
    assert.equal((await ben.client.post(`/calls/hearth/${room}/heartbeat`, { client_id: b.id })).status, 200);
    clock.offset += 5000;
    const left = await eventually(async () => (await qb.read()).find((e) => e.op === 'leave'), 'a leave event');
    assert.equal(left.client_id, a.id);
    assert.deepEqual([...ts.app.calls.rooms.get(room)!.participants.keys()], [b.id]);
    assertError(await ann.client.post(`/calls/hearth/${room}/heartbeat`, { client_id: a.id }), 'You are not in this call.');
    assert.equal((await ben.client.post(`/calls/hearth/${room}/leave`, { client_id: b.id })).status, 200);
  });

  it('a direct call rings the other person; joining answers it', async () => {
    const room = await createRoom(ann.client, { user_ids: [ben.account.id] });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const qb2 = await page(ben.client);
    await join(ann.client, room, qa);
    for (const q of [qb, qb2]) {
      const rings = (await q.read()).filter((e) => e.op === 'ring');
      assert.deepEqual(rings, [{ type: 'hearth_call', op: 'ring', room_id: room, url: `${ts.url}/calls/hearth/${room}`, is_video: true, caller_id: ann.account.id }]);
    }
    await join(ben.client, room, qb);
    for (const q of [qb, qb2]) {
      assert.deepEqual((await q.read()).filter((e) => e.op === 'ring_end').map((e) => e.reason), ['answered']);
    }
    assert.equal(ts.app.calls.rooms.get(room)!.ringing, null);
    ts.app.calls.rooms.delete(room);
  });

  it('declined: the rung person and the caller hear it', async () => {
    const room = await createRoom(ann.client, { user_ids: [ben.account.id], voice_only: true });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    await join(ann.client, room, qa);
    const ring = (await qb.read()).find((e) => e.op === 'ring');
    assert.equal(ring?.is_video, false);
    assert.equal((await ben.client.post(`/calls/hearth/${room}/decline`)).status, 200);
    assert.deepEqual((await qb.read()).map((e) => [e.op, e.reason]), [['ring_end', 'declined']]);
    assert.deepEqual((await qa.read()).filter((e) => e.op === 'ring_end').map((e) => e.reason), ['declined']);
    ts.app.calls.rooms.delete(room);
  });

  it('missed after 30 s with nobody answering', async () => {
    const room = await createRoom(ann.client, { user_ids: [ben.account.id] });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const a = await join(ann.client, room, qa);
    for (let i = 0; i < 4; i++) {
      assert.equal((await ann.client.post(`/calls/hearth/${room}/heartbeat`, { client_id: a.id })).status, 200);
      clock.offset += 8000;
    }
    const end = await eventually(async () => (await qb.read()).find((e) => e.op === 'ring_end'), 'ring_end');
    assert.equal(end.reason, 'missed');
    assert.deepEqual((await qa.read()).filter((e) => e.op === 'ring_end').map((e) => e.reason), ['missed']);
    ts.app.calls.rooms.delete(room);
  });
});

describe('organization settings', () => {
  it('hearth_call_ice_servers: administrators set it (validated), register and join carry it', async () => {
    const servers = [{ urls: 'stun:stun.office.lan:3478' }, { urls: ['turn:turn.office.lan'], username: 'u', credential: 'p' }];
    assert.equal((await ann.client.patch('/realm', { hearth_call_ice_servers: servers })).status, 400);
    for (const bad of [[{ urls: 'http://x' }], [{ urls: 'turn:x' }], { urls: 'stun:x' }, [{ urls: 'stun:x', extra: 1 }]]) {
      assert.equal((await ts.ownerClient.patch('/realm', { hearth_call_ice_servers: bad })).status, 400, JSON.stringify(bad));
    }
    const events = await verifyAction(ann.client, async () => {
      assert.equal((await ts.ownerClient.patch('/realm', { hearth_call_ice_servers: servers })).status, 200);
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'realm').map((e) => [e.property, e.value]),
      [['hearth_call_ice_servers', servers]],
    );
    assert.deepEqual((await ann.client.post('/register', { fetch_event_types: ['realm'] })).body.realm_hearth_call_ice_servers, servers);
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'ice' });
    assert.deepEqual((await join(ann.client, room, await page(ann.client))).res.body.ice_servers, servers);
    ts.app.calls.rooms.delete(room);
    assert.equal((await ts.ownerClient.patch('/realm', { hearth_call_ice_servers: [] })).status, 200);
  });
});

describe('a restart mid-call', () => {
  it('keeps the room and who is in it; a page re-joining with its client_id makes no join event for the others', async () => {
    const room = await createRoom(ann.client, { stream_id: ops, topic: 'restart' });
    const qa = await page(ann.client);
    const qb = await page(ben.client);
    const a = await join(ann.client, room, qa);
    const b = await join(ben.client, room, qb);
    await qb.read();
    ts = await restart(ts);
    const client = (p: Person) => ts.client(p.account);
    const seen = await client(ann).get(`/calls/hearth/${room}`);
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual(seen.body.participants.map((p: { client_id: string }) => p.client_id), [a.id, b.id]);
    // Ann's page re-registers (a new queue) and re-joins with its client_id; Ben's queue came back with the restart.
    const qa2 = await page(client(ann));
    const again = await join(client(ann), room, qa2, a.id);
    assert.equal(again.res.status, 200, JSON.stringify(again.res.body));
    assert.deepEqual(again.res.body.participants.map((p: { client_id: string }) => p.client_id), [b.id]);
    const qbAfter = { ...qb, read: async () => {
      const res = await client(ben).get('/events', { queue_id: qb.queueId, last_event_id: -1, dont_block: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.events as Ev[]).filter((e) => e.type === 'hearth_call');
    } };
    assert.deepEqual((await qbAfter.read()).filter((e) => e.op === 'join'), []);
    // Signals now reach Ann's new queue.
    assert.equal((await client(ben).post(`/calls/hearth/${room}/signal`, { client_id: b.id, to: a.id, kind: 'offer', data: 'sdp' })).status, 200);
    assert.deepEqual((await qa2.read()).filter((e) => e.op === 'signal').map((e) => e.from), [b.id]);
  });
});
