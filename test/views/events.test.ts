import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../server/clock.js';
import { applyEvents } from '../helpers/apply-events.js';
import { eventually } from '../helpers/eventually.js';
import { encodeParams, startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, stateOf, verifyAction } from '../helpers/verify-action.js';

type Body = Record<string, unknown>;

const draft = (content: string, timestamp?: number) => ({ type: '', to: [], topic: '', content, timestamp });

async function registerQueue(client: Client, params: Parameters<Client['post']>[1] = { event_types: ['drafts', 'realm_user'] }) {
  const res = await client.post('/register', params);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { queue_id: string; last_event_id: number } & Body;
}

async function addDraft(client: Client, content: string): Promise<number> {
  const res = await client.post('/drafts', { drafts: [draft(content)] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.ids[0];
}

/** A blocking GET /events that can be aborted (the client "disconnects"). */
function longPoll(client: Client, queueId: string, lastEventId: number) {
  const controller = new AbortController();
  const started = Date.now();
  const url = `${client.baseUrl}/api/v1/events?${encodeParams({ queue_id: queueId, last_event_id: lastEventId })}`;
  const done = fetch(url, { headers: client.authHeader, signal: controller.signal }).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as { events: Body[]; queue_id: string } & Body,
    elapsed: Date.now() - started,
    at: Date.now(),
  }));
  return { done, abort: () => controller.abort() };
}

describe('GET /events', () => {
  let ts: TestServer;
  let bob: Account;
  before(async () => {
    ts = await startTestServer();
    bob = await ts.addUser('Bob');
  });
  after(() => ts.stop());

  it('answers at once with dont_block, echoing the queue_id', async () => {
    const q = await registerQueue(ts.ownerClient);
    const started = Date.now();
    const res = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result, 'success');
    assert.deepEqual(res.body.events, []);
    assert.equal(res.body.queue_id, q.queue_id);
    assert.ok(Date.now() - started < 1000);
    assert.equal(ts.app.events.get(q.queue_id)?.isParked, false);
  });

  it('numbers events from 0, re-delivers until acknowledged, and prunes on acknowledgement', async () => {
    const q = await registerQueue(ts.ownerClient);
    const c = ts.ownerClient;
    const ids = [await addDraft(c, 'one'), await addDraft(c, 'two'), await addDraft(c, 'three')];

    const first = await drain(c, q.queue_id, -1);
    assert.deepEqual(
      first.map((e) => e.id),
      [0, 1, 2],
    );
    assert.deepEqual(
      first.map((e) => (e.drafts as { id: number }[])[0]!.id),
      ids,
    );
    assert.ok(first.every((e) => e.type === 'drafts' && e.op === 'add'));
    assert.deepEqual(await drain(c, q.queue_id, -1), first, 'unacknowledged events come again');

    const rest = await drain(c, q.queue_id, 1);
    assert.deepEqual(
      rest.map((e) => e.id),
      [2],
    );
    assert.equal(ts.app.events.get(q.queue_id)?.pending, 1, 'events through 1 were pruned');
    assert.deepEqual(await drain(c, q.queue_id, 1), rest, 'acknowledging the same id again is fine');

    const pruned = await c.get('/events', { queue_id: q.queue_id, last_event_id: 0, dont_block: true });
    assert.equal(pruned.status, 400);
    assert.equal(pruned.body.code, 'BAD_REQUEST');
    assert.equal(pruned.body.msg, 'An event newer than 0 has already been pruned!');
    const pruned2 = await c.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(pruned2.body.msg, 'An event newer than -1 has already been pruned!');

    const beyond = await c.get('/events', { queue_id: q.queue_id, last_event_id: 3, dont_block: true });
    assert.equal(beyond.status, 400);
    assert.equal(beyond.body.msg, 'Event 3 was not in this queue');
    assert.equal(ts.app.events.get(q.queue_id)?.pending, 1, 'a refused acknowledgement prunes nothing');

    assert.deepEqual(await drain(c, q.queue_id, 2), []);
    await addDraft(c, 'four');
    const later = await drain(c, q.queue_id, 2);
    assert.deepEqual(
      later.map((e) => e.id),
      [3],
      'ids keep increasing after pruning',
    );
  });

  it('requires queue_id', async () => {
    const res = await ts.ownerClient.get('/events', { last_event_id: -1, dont_block: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal(res.body.var_name, 'queue_id');
    assert.equal(res.body.msg, "Missing 'queue_id' argument");
  });

  it('requires last_event_id when polling a queue, before looking the queue up (Zulip fetch_events)', async () => {
    const q = await registerQueue(ts.ownerClient, { event_types: ['drafts'] });
    await addDraft(ts.ownerClient, 'x');
    for (const queue_id of [q.queue_id, 'no-such-queue']) {
      const res = await ts.ownerClient.get('/events', { queue_id, dont_block: true });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.msg, "Missing 'last_event_id' argument");
    }
    // Nothing was acknowledged or lost: the event is still there.
    const res = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(res.body.events.map((e: { type: string }) => e.type), ['drafts']);
    await ts.ownerClient.delete('/events', { queue_id: q.queue_id });
  });

  it('refuses an unknown queue with BAD_EVENT_QUEUE_ID', async () => {
    const res = await ts.ownerClient.get('/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.result, 'error');
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
    assert.equal(res.body.queue_id, 'no-such-queue');
    assert.equal(res.body.msg, 'Bad event queue ID: no-such-queue');
    const del = await ts.ownerClient.delete('/events', { queue_id: 'no-such-queue' });
    assert.equal(del.status, 400);
    assert.equal(del.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  it('requires authentication', async () => {
    const q = await registerQueue(ts.ownerClient);
    const res = await ts.anonymous.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'UNAUTHORIZED');
  });

  it("refuses another user's queue and leaves it intact", async () => {
    const q = await registerQueue(ts.ownerClient);
    await addDraft(ts.ownerClient, 'private');
    const bc = ts.client(bob);
    const peek = await bc.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(peek.status, 400);
    assert.equal(peek.body.code, 'BAD_EVENT_QUEUE_ID', 'as Zulip: no hint that the queue exists');
    assert.equal(JSON.stringify(peek.body).includes('private'), false);
    const ack = await bc.get('/events', { queue_id: q.queue_id, last_event_id: 0, dont_block: true });
    assert.equal(ack.status, 400);
    const del = await bc.delete('/events', { queue_id: q.queue_id });
    assert.equal(del.status, 400);
    assert.equal(del.body.code, 'BAD_EVENT_QUEUE_ID');

    assert.ok(ts.app.events.get(q.queue_id), 'the queue survives');
    const mine = await drain(ts.ownerClient, q.queue_id, -1);
    assert.equal(mine.length, 1, 'and nothing was acknowledged');
  });

  it('wakes a parked long-poll when an event arrives', async () => {
    const q = await registerQueue(ts.ownerClient);
    const poll = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the poll is parked', 2_000);
    await sleep(100);
    const sent = Date.now();
    const id = await addDraft(ts.ownerClient, 'wake up');
    const res = await poll.done;
    assert.equal(res.status, 200);
    assert.ok(res.at - sent < 1000, `answered ${res.at - sent} ms after the draft`);
    assert.ok(res.elapsed >= 100, 'it did wait');
    assert.deepEqual(
      res.body.events.map((e) => [e.type, e.op, e.id]),
      [['drafts', 'add', 0]],
    );
    assert.equal((res.body.events[0]!.drafts as { id: number }[])[0]!.id, id);
  });

  it('answers a blocking poll at once when events are pending', async () => {
    const q = await registerQueue(ts.ownerClient);
    await addDraft(ts.ownerClient, 'pending');
    const res = await longPoll(ts.ownerClient, q.queue_id, -1).done;
    assert.equal(res.body.events.length, 1);
    assert.ok(res.elapsed < 1000);
  });

  it('lets a second poll on the same queue finish the first', async () => {
    const q = await registerQueue(ts.ownerClient);
    const first = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the first poll is parked', 2_000);
    const second = longPoll(ts.ownerClient, q.queue_id, -1);
    const r1 = await first.done;
    assert.equal(r1.status, 200);
    assert.equal(r1.body.result, 'success');
    assert.deepEqual(r1.body.events, []);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the second poll is parked', 2_000);
    await addDraft(ts.ownerClient, 'for the second');
    const r2 = await second.done;
    assert.deepEqual(
      r2.body.events.map((e) => e.id),
      [0],
    );
  });

  it('lets a non-blocking poll finish a parked one too', async () => {
    const q = await registerQueue(ts.ownerClient);
    const parked = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the poll is parked', 2_000);
    const quick = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(quick.status, 200);
    const r = await Promise.race([parked.done, sleep(1000).then(() => null)]);
    assert.ok(r, 'the parked poll was finished');
    assert.equal(r.body.result, 'success');
    assert.equal(ts.app.events.get(q.queue_id)!.isParked, false);
  });

  it('keeps the parked poll when the newer poll is refused', async () => {
    const q = await registerQueue(ts.ownerClient);
    const parked = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the poll is parked', 2_000);
    const bad = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: 5, dont_block: true });
    assert.equal(bad.status, 400);
    assert.equal(ts.app.events.get(q.queue_id)!.isParked, true);
    const intruder = await ts.client(bob).get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(intruder.status, 400);
    assert.equal(ts.app.events.get(q.queue_id)!.isParked, true, "another user's poll does not finish it");
    await addDraft(ts.ownerClient, 'done');
    assert.equal((await parked.done).body.events.length, 1);
  });

  it('leaves the queue usable when a client disconnects while parked', async () => {
    const q = await registerQueue(ts.ownerClient);
    const poll = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the poll is parked', 2_000);
    poll.abort();
    await assert.rejects(poll.done, { name: 'AbortError' });
    await eventually(() => !ts.app.events.get(q.queue_id)!.isParked, 'the server notices the disconnect', 2_000);
    assert.ok(ts.app.events.get(q.queue_id));

    await addDraft(ts.ownerClient, 'after the disconnect');
    const events = await drain(ts.ownerClient, q.queue_id, -1);
    assert.deepEqual(
      events.map((e) => [e.type, e.id]),
      [['drafts', 0]],
    );
    const again = longPoll(ts.ownerClient, q.queue_id, 0);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'a new poll is parked', 2_000);
    await addDraft(ts.ownerClient, 'next');
    assert.deepEqual(
      (await again.done).body.events.map((e) => e.id),
      [1],
    );
  });

  it('deletes a queue with DELETE /events, finishing its parked poll', async () => {
    const q = await registerQueue(ts.ownerClient);
    const parked = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'the poll is parked', 2_000);
    const del = await ts.ownerClient.delete('/events', { queue_id: q.queue_id });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(del.body.result, 'success');
    const r = await parked.done;
    assert.equal(r.status, 200);
    assert.equal(ts.app.events.get(q.queue_id), undefined);

    const after = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(after.status, 400);
    assert.equal(after.body.code, 'BAD_EVENT_QUEUE_ID');
    assert.equal(after.body.queue_id, q.queue_id);
    const twice = await ts.ownerClient.delete('/events', { queue_id: q.queue_id });
    assert.equal(twice.body.code, 'BAD_EVENT_QUEUE_ID');
    const missing = await ts.ownerClient.delete('/events', {});
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  });

  it("delivers a user's events only to that user's queues", async () => {
    const bc = ts.client(bob);
    const ownerQ = await registerQueue(ts.ownerClient);
    const bobQ = await registerQueue(bc);
    const ownerAll = await registerQueue(ts.ownerClient, {});
    const bobAll = await registerQueue(bc, {});
    await addDraft(ts.ownerClient, 'owner only');
    await addDraft(bc, 'bob only');
    const newcomer = await ts.ownerClient.post('/users', { email: 'routing@example.com', password: 'long enough pw', full_name: 'Router' });
    assert.equal(newcomer.status, 200, JSON.stringify(newcomer.body));

    for (const [client, queues, who, mine] of [
      [ts.ownerClient, [ownerQ, ownerAll], 'owner', 'owner only'],
      [bc, [bobQ, bobAll], 'bob', 'bob only'],
    ] as const) {
      for (const q of queues) {
        const events = await drain(client, q.queue_id, -1);
        const drafts = events.filter((e) => e.type === 'drafts');
        assert.deepEqual(
          drafts.map((e) => (e.drafts as { content: string }[])[0]!.content),
          [mine],
          `${who} sees only their own draft`,
        );
        const people = events.filter((e) => e.type === 'realm_user');
        assert.deepEqual(
          people.map((e) => (e.person as { user_id: number }).user_id),
          [newcomer.body.user_id],
          `${who} hears of the new user`,
        );
      }
    }
  });

  it('verifies POST /users against a fresh register (realm_user add)', async () => {
    let created = 0;
    const events = await verifyAction(ts.ownerClient, async () => {
      const res = await ts.ownerClient.post('/users', {
        email: 'verified@example.com',
        password: 'long enough pw',
        full_name: 'Vera Verified',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      created = res.body.user_id;
    });
    // The new member also joins role:members and role:fullmembers (user_group add_members, as Zulip).
    assert.deepEqual(
      events.map((e) => [e.type, e.op]),
      [
        ['realm_user', 'add'],
        ['user_group', 'add_members'],
        ['user_group', 'add_members'],
      ],
    );
    const person = events[0]!.person as Body;
    assert.equal(person.user_id, created);
    assert.equal(person.full_name, 'Vera Verified');
    assert.equal(person.email, 'verified@example.com');
    assert.equal(ts.store.users.get(created)?.full_name, 'Vera Verified');

    // Also as seen by a member, with only the people section.
    await verifyAction(
      ts.client(bob),
      async () => {
        const res = await ts.ownerClient.post('/users', { email: 'second@example.com', password: 'long enough pw', full_name: 'Sec' });
        assert.equal(res.status, 200);
      },
      { event_types: ['realm_user'] },
    );
  });

  it('verifies drafts add, update and remove against a fresh register', async () => {
    const c = ts.ownerClient;
    let id = 0;
    const add = await verifyAction(c, async () => (id = await addDraft(c, 'verify')), { fetch_event_types: ['drafts'] });
    assert.deepEqual(
      add.map((e) => [e.type, e.op]),
      [['drafts', 'add']],
    );
    const upd = await verifyAction(c, async () => {
      const res = await c.patch(`/drafts/${id}`, { draft: draft('verified', 5000) });
      assert.equal(res.status, 200);
    });
    assert.deepEqual(
      upd.map((e) => [e.type, e.op]),
      [['drafts', 'update']],
    );
    const rem = await verifyAction(c, async () => assert.equal((await c.delete(`/drafts/${id}`)).status, 200));
    assert.deepEqual(rem, [{ type: 'drafts', op: 'remove', draft_id: id, id: 0 }]);
  });
});

describe('heartbeats', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer({ config: { heartbeatMs: 200 } });
  });
  after(() => ts.stop());

  it('finishes an idle long-poll with a heartbeat event after the interval', async () => {
    const q = await registerQueue(ts.ownerClient);
    const res = await longPoll(ts.ownerClient, q.queue_id, -1).done;
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.events, [{ type: 'heartbeat', id: 0 }]);
    assert.ok(res.elapsed >= 150 && res.elapsed < 1500, `took ${res.elapsed} ms`);
    const next = await longPoll(ts.ownerClient, q.queue_id, 0).done;
    assert.deepEqual(next.body.events, [{ type: 'heartbeat', id: 1 }]);
  });

  it('sends heartbeats whatever event_types the queue asked for', async () => {
    const q = await registerQueue(ts.ownerClient, { event_types: ['realm'] });
    const res = await longPoll(ts.ownerClient, q.queue_id, -1).done;
    assert.deepEqual(
      res.body.events.map((e) => e.type),
      ['heartbeat'],
    );
  });
});

describe('queue garbage collection', () => {
  let ts: TestServer;
  let now = Date.now();
  const clock: Clock = { now: () => now };
  before(async () => {
    ts = await startTestServer({ clock, config: { gcIntervalMs: 50 } });
  });
  after(() => ts.stop());

  it('collects a queue idle past its timeout, not before', async () => {
    const q = await registerQueue(ts.ownerClient, { idle_queue_timeout: 60 });
    const other = await registerQueue(ts.ownerClient, { idle_queue_timeout: 3600 });
    now += 30_000;
    await sleep(150);
    assert.ok(ts.app.events.get(q.queue_id), 'not idle long enough yet');
    assert.deepEqual(await drain(ts.ownerClient, q.queue_id, -1), [], 'polling it counts as activity');
    now += 50_000;
    await sleep(150);
    assert.ok(ts.app.events.get(q.queue_id), 'the poll reset the idle clock');
    now += 11_000;
    await eventually(() => ts.app.events.get(q.queue_id) === undefined, 'the GC tick collects it', 1000);
    const res = await ts.ownerClient.get('/events', { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
    assert.equal(res.body.queue_id, q.queue_id);
    assert.ok(ts.app.events.get(other.queue_id), 'a queue with a longer timeout stays');
  });

  it('never collects a queue while a poll is parked on it', async () => {
    const q = await registerQueue(ts.ownerClient, { idle_queue_timeout: 60 });
    const poll = longPoll(ts.ownerClient, q.queue_id, -1);
    await eventually(() => ts.app.events.get(q.queue_id)?.isParked === true, 'the poll is parked', 2_000);
    now += 3_600_000;
    await sleep(200);
    assert.ok(ts.app.events.get(q.queue_id), 'still there');
    await addDraft(ts.ownerClient, 'finally');
    const res = await poll.done;
    assert.equal(res.body.events.length, 1);
    await sleep(150);
    assert.ok(ts.app.events.get(q.queue_id), 'the finished poll counts as activity');
    now += 61_000;
    await eventually(() => ts.app.events.get(q.queue_id) === undefined, 'collected once idle again', 1000);
  });
});

describe('shutdown', () => {
  it('finishes parked long-polls when the server closes', async () => {
    const ts = await startTestServer();
    try {
      const q1 = await registerQueue(ts.ownerClient);
      const q2 = await registerQueue(ts.ownerClient);
      await addDraft(ts.ownerClient, 'before');
      const [p1, p2] = [longPoll(ts.ownerClient, q1.queue_id, 0), longPoll(ts.ownerClient, q2.queue_id, 0)];
      await eventually(() => ts.app.events.get(q1.queue_id)!.isParked && ts.app.events.get(q2.queue_id)!.isParked, 'both parked', 2_000);
      const started = Date.now();
      await ts.server.close();
      const closeMs = Date.now() - started;
      for (const r of await Promise.all([p1.done, p2.done])) {
        assert.equal(r.status, 200);
        assert.equal(r.body.result, 'success');
        assert.deepEqual(r.body.events, []);
      }
      assert.ok(closeMs < 1500, `close took ${closeMs} ms`);
    } finally {
      await ts.stop();
    }
  });

  it('a client that polls again on the shutdown answer does not hold the stop: it is answered at once and its connection closed', async () => {
    const ts = await startTestServer();
    try {
      const q = await registerQueue(ts.ownerClient);
      // As every Zulip client does: poll again as soon as an answer arrives (over the same keep-alive connection).
      const answers: { status: number; events: number; connection: string | null }[] = [];
      let failed = false;
      const loop = (async () => {
        let last = -1;
        while (!failed) {
          const url = `${ts.url}/api/v1/events?${encodeParams({ queue_id: q.queue_id, last_event_id: last })}`;
          try {
            const res = await fetch(url, { headers: ts.ownerClient.authHeader });
            const body = (await res.json()) as { events: { id: number }[] };
            answers.push({ status: res.status, events: body.events.length, connection: res.headers.get('connection') });
            for (const e of body.events) last = Math.max(last, e.id);
          } catch {
            failed = true; // the server is gone
          }
        }
      })();
      await eventually(() => ts.app.events.get(q.queue_id)!.isParked, 'parked', 2_000);
      const started = Date.now();
      await ts.server.close();
      const closeMs = Date.now() - started;
      await loop;
      assert.ok(closeMs < 1000, `close took ${closeMs} ms (connections were dropped by force, not closed)`);
      assert.ok(answers.length >= 1 && answers.length <= 3, JSON.stringify(answers));
      assert.ok(answers.every((a) => a.status === 200 && a.connection === 'close'), JSON.stringify(answers));
    } finally {
      await ts.stop();
    }
  });
});

describe('register/action race', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('loses and duplicates no event between register and the first poll', async (t) => {
    const c = ts.ownerClient;
    const params = { event_types: ['drafts', 'realm_user'], fetch_event_types: ['drafts', 'realm_user'] };
    const existing: number[] = [];
    for (let i = 0; i < 24; i++) existing.push(await addDraft(c, `seed ${i}`));

    const bob = ts.client(await ts.addUser('Bob'));
    const registers: Promise<{ client: Client; q: { queue_id: string; last_event_id: number } & Body }>[] = [];
    const actions: Promise<void>[] = [];
    const ok = (label: string, statuses: number[]) => (res: { status: number; body: unknown }) => {
      assert.ok(statuses.includes(res.status), `${label}: ${res.status} ${JSON.stringify(res.body)}`);
    };
    let n = 0;
    for (let round = 0; round < 60; round++) {
      // Every fourth register is a member's, who only hears of the new users.
      const registrant = round % 4 === 3 ? bob : c;
      registers.push(registerQueue(registrant, params).then((q) => ({ client: registrant, q })));
      const kind = round % 5;
      const id = existing[(round * 7) % existing.length]!;
      if (kind === 0 || kind === 3) {
        actions.push(c.post('/drafts', { drafts: [draft(`race ${round}`, 1000 + round), draft(`race ${round}b`)] }).then(ok('add', [200])));
      } else if (kind === 1) {
        actions.push(c.patch(`/drafts/${id}`, { draft: draft(`edited ${round}`, 5000 + round) }).then(ok('edit', [200, 404])));
      } else if (kind === 2) {
        actions.push(c.delete(`/drafts/${id}`).then(ok('delete', [200, 404])));
      } else {
        actions.push(
          c
            .post('/users', { email: `racer${n++}@example.com`, password: 'long enough pw', full_name: `Racer ${round}` })
            .then(ok('user', [200])),
        );
      }
    }
    const queues = await Promise.all(registers);
    await Promise.all(actions);

    const expected = new Map<Client, Body>();
    for (const client of [c, bob]) expected.set(client, stateOf(await registerQueue(client, params)));
    let sawOpenTickets = 0;
    let sawEarlierState = 0;
    for (const { client, q } of queues) {
      const queue = ts.app.events.get(q.queue_id)!;
      if (queue.skipTickets.size > 0) sawOpenTickets++;
      if (!isDeepStrictEqual(stateOf(q), expected.get(client))) sawEarlierState++;
      const events = await drain(client, q.queue_id, q.last_event_id);
      assert.deepEqual(applyEvents(stateOf(q), events), expected.get(client), `queue ${q.queue_id}`);
    }
    assert.equal(queues.length, 60);
    t.diagnostic(`${sawOpenTickets} of ${queues.length} registers overlapped an action being written`);
    assert.ok(sawOpenTickets > 0, 'some registers landed while an action was being written');
    assert.ok(sawEarlierState > 0, 'some registers saw an earlier state');
  });

  it('creates one user, and sends one realm_user add, when requests race for one address', async () => {
    const q = await registerQueue(ts.ownerClient, { event_types: ['realm_user'] });
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        ts.ownerClient.post('/users', { email: 'Twin@example.com', password: 'long enough pw', full_name: `Twin ${i}` }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400, 400], JSON.stringify(results.map((r) => r.body)));
    for (const r of results.filter((x) => x.status === 400)) assert.equal(r.body.msg, "Email 'Twin@example.com' already in use");
    assert.equal(ts.store.users.all().filter((u) => u.email.toLowerCase() === 'twin@example.com').length, 1);
    const events = await drain(ts.ownerClient, q.queue_id, -1);
    assert.equal(events.length, 1);
  });
});
