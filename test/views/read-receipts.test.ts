import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

describe('GET /messages/{id}/read_receipts', () => {
  let ts: TestServer;
  let sam: Client;
  let samAcc: Account;
  const acc: Record<string, Account> = {};
  const cl: Record<string, Client> = {};
  before(async () => {
    ts = await startTestServer();
    samAcc = await ts.addUser('Sam');
    sam = ts.client(samAcc);
    for (const name of ['Mel', 'Ann', 'Bob', 'Dee', 'Eve', 'Otto']) {
      acc[name] = await ts.addUser(name);
      cl[name] = ts.client(acc[name]!);
    }
    await createChannel(ts, sam, 'kitchen', { invite_only: true, principals: [] });
    for (const name of ['Mel', 'Ann', 'Bob', 'Dee', 'Eve']) {
      const res = await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'kitchen' }], principals: [acc[name]!.id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'kitchen' }] });
  });
  after(() => ts.stop());

  const read = (c: Client, id: number) => c.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
  const receipts = async (c: Client, id: number) => {
    const res = await c.get(`/messages/${id}/read_receipts`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.user_ids as number[];
  };

  it('lists readers who share receipts: not the sender, not unread, not those who turned sharing off', async () => {
    const id = await sendStream(sam, 'kitchen', 'lunch', 'soup?');
    assert.deepEqual(await receipts(cl.Bob!, id), [], 'the sender has read it but is never listed');
    for (const name of ['Mel', 'Ann', 'Dee']) assert.equal((await read(cl[name]!, id)).status, 200);
    assert.equal((await cl.Dee!.patch('/settings', { send_read_receipts: false })).status, 200);
    assert.deepEqual((await receipts(cl.Bob!, id)).sort((a, b) => a - b), [acc.Mel!.id, acc.Ann!.id].sort((a, b) => a - b));
    assert.deepEqual((await receipts(sam, id)).sort((a, b) => a - b), [acc.Mel!.id, acc.Ann!.id].sort((a, b) => a - b));
    // Reading it again, or unreading it, shows at once.
    assert.equal((await cl.Ann!.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'read' })).status, 200);
    assert.deepEqual(await receipts(cl.Bob!, id), [acc.Mel!.id]);
    assert.equal((await cl.Dee!.patch('/settings', { send_read_receipts: true })).status, 200);
    assert.deepEqual(await receipts(cl.Bob!, id), [acc.Mel!.id, acc.Dee!.id].sort((a, b) => a - b));
  });

  it('leaves out users who muted the requester, users the requester muted, and deactivated users', async () => {
    const id = await sendStream(sam, 'kitchen', 'mute', 'who read this?');
    for (const name of ['Mel', 'Ann', 'Dee', 'Eve']) await read(cl[name]!, id);
    assert.equal((await cl.Ann!.post(`/users/me/muted_users/${acc.Bob!.id}`)).status, 200);
    assert.equal((await cl.Bob!.post(`/users/me/muted_users/${acc.Mel!.id}`)).status, 200);
    assert.equal((await ts.ownerClient.delete(`/users/${acc.Eve!.id}`)).status, 200);
    assert.deepEqual(await receipts(cl.Bob!, id), [acc.Dee!.id]);
    // Others still see them all (but Eve, deactivated), themselves included, as in Zulip.
    assert.deepEqual(await receipts(cl.Dee!, id), [acc.Mel!.id, acc.Ann!.id, acc.Dee!.id].sort((a, b) => a - b));
  });

  it('direct messages too', async () => {
    const id = await sendDirect(sam, [acc.Mel!.id, acc.Ann!.id], 'group chat');
    await read(cl.Mel!, id);
    assert.deepEqual(await receipts(cl.Ann!, id), [acc.Mel!.id]);
  });

  it('only for messages the requester can read: Invalid message(s) otherwise', async () => {
    const id = await sendStream(sam, 'kitchen', 'secret', 'private channel');
    for (const [c, path] of [[cl.Otto!, `/messages/${id}/read_receipts`], [sam, '/messages/99999999/read_receipts']] as const) {
      const res = await c.get(path);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.msg, 'Invalid message(s)');
    }
    assert.equal((await cl.Otto!.get('/messages/abc/read_receipts')).status, 400);
    assert.equal((await ts.anonymous.get(`/messages/${id}/read_receipts`)).status, 401);
  });

  it('the organization setting: on by default, an administrator turns it off (realm event, stored), then refused', async () => {
    const id = await sendStream(sam, 'kitchen', 'policy', 'hm');
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_enable_read_receipts, true);
    assert.equal((await sam.patch('/realm', { enable_read_receipts: false })).status, 400, 'members may not change it');
    const events = await verifyAction(ts.ownerClient, async () => {
      const res = await ts.ownerClient.patch('/realm', { enable_read_receipts: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, { fetch_event_types: ['realm'] });
    assert.deepEqual(events.map((e) => [e.type, e.op, e.property, e.value]), [['realm', 'update', 'enable_read_receipts', false]]);
    await ts.store.settled();
    const realm = JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm;
    assert.equal(realm.settings.enable_read_receipts, false);
    const res = await cl.Mel!.get(`/messages/${id}/read_receipts`);
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Read receipts are disabled in this organization.');
    assert.equal((await ts.ownerClient.patch('/realm', { enable_read_receipts: true })).status, 200);
    assert.equal((await cl.Mel!.get(`/messages/${id}/read_receipts`)).status, 200);
  });
});
