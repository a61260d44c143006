import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

describe('drafts', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('creates, lists newest first, edits and deletes, with events matching a fresh register', async () => {
    const c = ts.ownerClient;
    let ids: number[] = [];
    const added = await verifyAction(c, async () => {
      const res = await c.post('/drafts', {
        drafts: [
          { type: 'private', to: [ts.owner.id], topic: '', content: 'older', timestamp: 1000 },
          { type: '', to: [], topic: 'ignored', content: 'newer', timestamp: 2000 },
        ],
      });
      assert.equal(res.status, 200);
      ids = res.body.ids;
    });
    assert.equal(ids.length, 2);
    assert.deepEqual(
      added.map((e) => [e.type, e.op]),
      [['drafts', 'add']],
    );
    const list = await c.get('/drafts');
    assert.equal(list.body.count, 2);
    assert.deepEqual(
      list.body.drafts.map((d: { content: string }) => d.content),
      ['newer', 'older'],
    );
    assert.equal(list.body.drafts[0].topic, '', 'unaddressed drafts drop the topic');

    const channel = await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'plans' }] });
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    const channelId = ts.store.channels.data.channels.find((x) => x.name === 'plans')!.id;
    await verifyAction(c, async () => {
      const res = await c.patch(`/drafts/${ids[0]}`, {
        draft: { type: 'stream', to: [channelId], topic: 'plans', content: 'edited', timestamp: 3000 },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const stored = ts.store.drafts.data.drafts.find((d) => d.id === ids[0]);
    assert.equal(stored?.content, 'edited');
    assert.equal(stored?.type, 'stream');

    await verifyAction(c, async () => {
      const res = await c.delete(`/drafts/${ids[1]}`);
      assert.equal(res.status, 200);
    });
    assert.equal(ts.store.drafts.data.drafts.some((d) => d.id === ids[1]), false);
    const gone = await c.delete(`/drafts/${ids[1]}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.msg, 'Draft does not exist');
  });

  it('fills in the timestamp when absent', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await ts.ownerClient.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] });
    const d = ts.store.drafts.data.drafts.find((x) => x.id === res.body.ids[0])!;
    assert.ok(d.timestamp >= before && d.timestamp <= before + 5, String(d.timestamp));
  });

  it('refuses a channel draft without exactly one channel ID', async () => {
    for (const to of [[], [1, 2]]) {
      const res = await ts.ownerClient.post('/drafts', { drafts: [{ type: 'stream', to, topic: 't', content: 'c' }] });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.msg, 'Must specify exactly 1 channel ID for channel messages');
    }
  });

  it('refuses null bytes in content and topic, and stores nothing', async () => {
    const count = ts.store.drafts.data.drafts.length;
    const a = await ts.ownerClient.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'a\u0000b' }] });
    assert.equal(a.status, 400);
    assert.equal(a.body.msg, 'Message must not contain null bytes', 'normalize_body wording');
    const b = await ts.ownerClient.post('/drafts', {
      drafts: [{ type: 'stream', to: [1], topic: 'x\u0000', content: 'ok' }],
    });
    assert.equal(b.status, 400);
    assert.match(b.body.msg, /Topic must not contain null bytes/);
    assert.equal(ts.store.drafts.data.drafts.length, count);
  });

  it('validates types with Zulip wording', async () => {
    const bad = await ts.ownerClient.call('POST', '/drafts', {}, { headers: {} });
    assert.equal(bad.status, 200, 'drafts is optional');
    const notJson = await ts.ownerClient.post('/drafts', { drafts: '[{' });
    assert.equal(notJson.body.msg, 'drafts is not valid JSON');
    const notList = await ts.ownerClient.post('/drafts', { drafts: { type: '' } });
    assert.equal(notList.body.msg, 'drafts is not a list');
    const badTo = await ts.ownerClient.post('/drafts', { drafts: [{ type: 'private', to: ['x'], topic: '', content: '' }] });
    assert.equal(badTo.body.msg, 'drafts[0]["to"][0] is not an integer');
    const badType = await ts.ownerClient.post('/drafts', { drafts: [{ type: 'dm', to: [], topic: '', content: '' }] });
    assert.equal(badType.status, 400);
    const missing = await ts.ownerClient.post('/drafts', { drafts: [{ type: '', to: [], topic: '' }] });
    assert.equal(missing.body.msg, 'content key is missing from drafts[0]');
    const unknownUser = await ts.ownerClient.post('/drafts', { drafts: [{ type: 'private', to: [999], topic: '', content: 'x' }] });
    assert.equal(unknownUser.body.msg, 'Invalid user ID 999');
  });

  it('strips the content, refuses a blank one, and stores a direct-message draft without recipients unaddressed', async () => {
    const c = ts.ownerClient;
    const count = ts.store.drafts.data.drafts.length;
    for (const content of ['', '   ', '\n\t ']) {
      const res = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
      assert.equal(res.status, 400, JSON.stringify(content));
      assert.equal(res.body.msg, 'drafts[0]["content"] cannot be blank.');
    }
    assert.equal(ts.store.drafts.data.drafts.length, count, 'nothing stored');
    const made = await c.post('/drafts', {
      drafts: [
        { type: 'private', to: [], topic: 'ignored', content: '  hello  \n', timestamp: 1595479019 },
      ],
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const listed = (await c.get('/drafts')).body.drafts.find((d: { id: number }) => d.id === made.body.ids[0]);
    assert.deepEqual(listed, { id: made.body.ids[0], type: '', to: [], topic: '', content: 'hello', timestamp: 1595479019 });
    const id = made.body.ids[0];
    const blankEdit = await c.patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: ' ' } });
    assert.equal(blankEdit.status, 400);
    assert.equal(blankEdit.body.msg, 'draft["content"] cannot be blank.');
    assert.equal((await c.delete(`/drafts/${id}`)).status, 200);
  });

  it('refuses every drafts endpoint while the user has drafts synchronization off, which deletes their drafts', async () => {
    const carl = await ts.addUser('Carl');
    const cc = ts.client(carl);
    const made = await cc.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'kept locally' }] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const id = made.body.ids[0];
    const reg = await cc.post('/register', { event_types: ['drafts', 'user_settings'] });
    const off = await cc.patch('/settings', { enable_drafts_synchronization: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(ts.store.drafts.data.drafts.filter((d) => d.user_id === carl.id).length, 0, 'stored drafts deleted');
    const events = (await cc.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true })).body.events;
    assert.ok(events.length > 0, 'the settings change was announced');
    assert.deepEqual(
      events.filter((e: { type: string }) => e.type === 'drafts'),
      [],
      'no drafts remove events: the clients keep their local drafts',
    );
    const refused = (res: { status: number; body: { code: string; msg: string } }, what: string) => {
      assert.equal(res.status, 400, what);
      assert.equal(res.body.code, 'BAD_REQUEST', what);
      assert.equal(res.body.msg, 'User has disabled synchronizing drafts.', what);
    };
    refused(await cc.get('/drafts'), 'GET');
    refused(await cc.post('/drafts', { drafts: [] }), 'POST');
    refused(await cc.patch(`/drafts/${id}`, { draft: { type: '', to: [], topic: '', content: 'x' } }), 'PATCH');
    refused(await cc.delete(`/drafts/${id}`), 'DELETE');
    const state = await cc.post('/register', { fetch_event_types: ['drafts'] });
    assert.deepEqual(state.body.drafts, []);
    assert.equal((await cc.patch('/settings', { enable_drafts_synchronization: true })).status, 200);
    assert.deepEqual((await cc.get('/drafts')).body.drafts, []);
    for (const q of [reg.body.queue_id, state.body.queue_id]) await cc.delete('/events', { queue_id: q });
  });

  it("keeps users' drafts apart and refuses another user's draft", async () => {
    const bob = await ts.addUser('Bob');
    const bc = ts.client(bob);
    const mine = await bc.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'bob' }] });
    const ownerView = await ts.ownerClient.get('/drafts');
    assert.ok(!ownerView.body.drafts.some((d: { id: number }) => d.id === mine.body.ids[0]));
    const steal = await ts.ownerClient.delete(`/drafts/${mine.body.ids[0]}`);
    assert.equal(steal.status, 404);
    assert.ok(ts.store.drafts.data.drafts.some((d) => d.id === mine.body.ids[0]));
  });
});
