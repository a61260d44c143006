import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../../server/log.js';
import { startServer, type RunningServer } from '../../../server/start.js';
import { QUEUE_SAVE_BUDGET_MS, restoreQueues, saveQueues } from '../../../server/lib/runtime/queue-persistence.js';
import { Client, startTestServer } from '../../helpers/server.js';

/** The queues file: a header line, then a line per queue. */
async function readQueuesFile(file: string): Promise<{ header: Record<string, unknown>; queues: { id: string }[] }> {
  const [head, ...rest] = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  return { header: JSON.parse(head!), queues: rest.map((l) => JSON.parse(l)) };
}
const writeQueuesFile = (file: string, header: Record<string, unknown>, queues: unknown[]) =>
  writeFile(file, [header, ...queues].map((x) => JSON.stringify(x)).join('\n') + '\n');

describe('event queues and presence across a graceful restart', () => {
  let dataDir: string;
  let running: RunningServer;
  let client: Client;
  const start = async () => {
    running = await startServer({ dataDir, host: '127.0.0.1', port: 0, log: silentLogger });
    const origin = `http://127.0.0.1:${running.port}`;
    client = new Client(origin, client?.account ?? null);
    return origin;
  };
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-queues-'));
    const origin = await start();
    const made = await new Client(origin, null).post('/hearth/setup', { realm_name: 'Office', email: 'ida@example.com', password: 'ida password', full_name: 'Ida' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    client = new Client(origin, { id: made.body.user_id, email: 'ida@example.com', apiKey: made.body.api_key, password: 'ida password' });
  });
  after(async () => {
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const draft = (content: string) => client.post('/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content }]) });
  const poll = (queueId: string, lastEventId: number) => client.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });

  it('keeps queues, their unacknowledged events and ids; clients poll on as if nothing happened', async () => {
    const reg = (await client.post('/register', { event_types: JSON.stringify(['drafts']) })).body;
    assert.equal((await draft('first')).status, 200);
    assert.equal((await draft('second')).status, 200);
    // Acknowledge the first event, leave the second pending.
    const first = await poll(reg.queue_id, reg.last_event_id);
    assert.equal(first.body.events.length, 2);
    await poll(reg.queue_id, first.body.events[0].id);
    await running.stop();
    const saved = await readQueuesFile(join(dataDir, 'event-queues.json'));
    assert.equal(saved.header.version, 2);
    assert.equal(saved.queues.length, 1);

    await start();
    await assert.rejects(stat(join(dataDir, 'event-queues.json')), /ENOENT/, 'read once, then gone');
    const after = await poll(reg.queue_id, first.body.events[0].id);
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.deepEqual(after.body.events.map((e: { id: number; op: string }) => [e.id, e.op]), [[first.body.events[1].id, 'add']]);
    const pruned = await poll(reg.queue_id, -1);
    assert.equal(pruned.body.msg, `An event newer than -1 has already been pruned!`, 'pruning survives too');
    assert.equal((await draft('third')).status, 200);
    const third = await poll(reg.queue_id, first.body.events[1].id);
    assert.deepEqual(third.body.events.map((e: { id: number }) => e.id), [first.body.events[1].id + 1], 'ids continue');
    // A new queue after the restart gets an id of its own.
    const fresh = (await client.post('/register', { event_types: JSON.stringify(['drafts']) })).body;
    assert.notEqual(fresh.queue_id, reg.queue_id);
  });

  it('queues saved against other data (a restored backup) are dropped: clients re-register', async () => {
    const reg = (await client.post('/register', { event_types: JSON.stringify(['drafts']) })).body;
    await running.stop();
    const file = join(dataDir, 'event-queues.json');
    const { header, queues } = await readQueuesFile(file);
    await writeQueuesFile(file, { ...header, usersNextId: (header.usersNextId as number) + 5 }, queues);
    await start();
    const res = await poll(reg.queue_id, reg.last_event_id);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  it('queues saved by another Hearth version are dropped: re-registering is how clients learn the new feature level', async () => {
    for (const serverVersion of ['11.0-hearth-0.0.9/480', undefined]) {
      const reg = (await client.post('/register', { event_types: JSON.stringify(['drafts']) })).body;
      await running.stop();
      const file = join(dataDir, 'event-queues.json');
      const { header, queues } = await readQueuesFile(file);
      assert.match(String(header.serverVersion), /^11\.0-hearth-.+\/491$/);
      await writeQueuesFile(file, { ...header, serverVersion }, queues);
      await start();
      const res = await poll(reg.queue_id, reg.last_event_id);
      assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID', String(serverVersion));
    }
  });

  it('presence (last active times) comes back after a restart', async () => {
    const res = await client.post('/users/me/presence', { status: 'active', new_user_input: 'true', slim_presence: 'true', last_update_id: '-1' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const before = (await client.get('/realm/presence')).body.presences;
    const mine = Object.values(before)[0] as Record<string, { timestamp: number }>;
    assert.ok(mine, JSON.stringify(before));
    await running.stop();
    const saved = JSON.parse(await readFile(join(dataDir, 'presence.json'), 'utf8'));
    assert.equal(saved.rows.length, 1);
    await start();
    assert.deepEqual((await client.get('/realm/presence')).body.presences, before);
  });

  it('a damaged file is ignored (and removed), never stopping the start', async () => {
    await running.stop();
    await writeFile(join(dataDir, 'event-queues.json'), '{"version": 1, "queues": [oops');
    await writeFile(join(dataDir, 'presence.json'), 'not json');
    await start();
    await assert.rejects(stat(join(dataDir, 'event-queues.json')), /ENOENT/);
    assert.equal((await client.get('/users/me')).status, 200);
  });
});

describe('saving many or huge queues (issue 36, item 9)', () => {
  const opts = (userId: number) => ({
    userId, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
    applyMarkdown: true, clientGravatar: false, slimPresence: true, idleTimeoutSecs: 600,
  });

  it('3,000 queues of one user, each with events, are kept and put back a line at a time', async () => {
    const ts = await startTestServer();
    try {
      const queues = Array.from({ length: 3000 }, () => ts.app.events.allocate(opts(ts.owner.id)));
      const blob = 'x'.repeat(2000);
      for (const q of queues) for (let i = 0; i < 5; i++) q.push({ type: 'drafts', op: 'add', drafts: [{ content: blob }] } as never);
      const started = performance.now();
      assert.equal(await saveQueues(ts.app), 3000);
      const took = performance.now() - started;
      const text = await readFile(join(ts.dataDir, 'event-queues.json'), 'utf8');
      assert.equal(text.split('\n').filter((l) => l !== '').length, 3001, 'a header and a line per queue');
      assert.ok(took < QUEUE_SAVE_BUDGET_MS, `saved in ${took.toFixed(0)} ms`);
      ts.app.events.deleteAll();
      assert.equal(await restoreQueues(ts.app), 3000);
      assert.equal(ts.app.events.get(queues[2999]!.id)?.saved().events.length, 5);
    } finally {
      await ts.stop();
    }
  });

  it('a queue too large for one string is left out; the others are kept', async () => {
    const ts = await startTestServer();
    try {
      const good = ts.app.events.allocate(opts(ts.owner.id));
      const huge = ts.app.events.allocate(opts(ts.owner.id));
      // What V8 throws when a string would pass its limit (~512 MiB), without making one.
      huge.push({ type: 'drafts', toJSON() { throw new RangeError('Invalid string length'); } } as never);
      assert.equal(await saveQueues(ts.app), 1);
      ts.app.events.deleteAll();
      assert.equal(await restoreQueues(ts.app), 1);
      assert.ok(ts.app.events.get(good.id));
      assert.equal(ts.app.events.get(huge.id), undefined);
    } finally {
      await ts.stop();
    }
  });

  it('past its time budget saving gives up at once and leaves no file behind', async () => {
    const ts = await startTestServer();
    try {
      for (let i = 0; i < 200; i++) ts.app.events.allocate(opts(ts.owner.id));
      const started = performance.now();
      await assert.rejects(saveQueues(ts.app, 0));
      assert.ok(performance.now() - started < 1000);
      await assert.rejects(stat(join(ts.dataDir, 'event-queues.json')), /ENOENT/);
      await assert.rejects(stat(join(ts.dataDir, 'event-queues.json.tmp')), /ENOENT/);
    } finally {
      await ts.stop();
    }
  });
});
