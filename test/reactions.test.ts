import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Store } from '../server/store/store.js';
import { FLAG } from '../server/store/message-records.js';
import { createChannel } from './helpers/channels.js';
import { sendStream } from './helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from './helpers/server.js';
import { drain, verifyAction } from './helpers/verify-action.js';

describe('reactions', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let otto: Client;
  let ottoAcc: Account;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    ottoAcc = await ts.addUser('Otto');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    otto = ts.client(ottoAcc);
    await createChannel(ts, sam, 'porch', { principals: [] });
    await createChannel(ts, sam, 'attic', { invite_only: true, principals: [] });
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }, { name: 'attic' }] });
  });
  after(() => ts.stop());

  const react = (c: Client, id: number, params: Record<string, string>) => c.post(`/messages/${id}/reactions`, params);
  const unreact = (c: Client, id: number, params: Record<string, string>) => c.delete(`/messages/${id}/reactions`, params);

  it('adds a Unicode emoji by name: stored, shown on the message, announced to the recipients', async () => {
    const id = await sendStream(sam, 'porch', 'cake', 'cake!');
    const samReg = await sam.post('/register', { event_types: ['reaction'] });
    const events = await verifyAction(mel, async () => {
      const res = await react(mel, id, { emoji_name: 'tada' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const want = {
      type: 'reaction',
      op: 'add',
      user_id: melAcc.id,
      user: { user_id: melAcc.id, email: melAcc.email, full_name: 'Mel' },
      message_id: id,
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    };
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [want]);
    assert.deepEqual((await drain(sam, samReg.body.queue_id, samReg.body.last_event_id)).map(({ id: _i, ...e }) => e), [want]);
    const m = (await sam.get(`/messages/${id}`)).body.message;
    assert.deepEqual(m.reactions, [{ emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: melAcc.id }]);

    await ts.app.store.settled();
    const copy = await Store.open(ts.dataDir, { lock: false });
    try {
      assert.equal(copy.messages.get(id)!.reactions?.[0]?.emoji_code, '1f389');
    } finally {
      await copy.close();
    }
  });

  it('validates names and codes with Zulip\'s errors, and refuses a duplicate', async () => {
    const id = await sendStream(sam, 'porch', 'checks', 'x');
    const bad: [Record<string, string>, string, string?][] = [
      [{ emoji_name: 'definitely_not_an_emoji' }, "Emoji 'definitely_not_an_emoji' does not exist"],
      [{ emoji_name: 'tada', emoji_code: 'zzzz' }, 'Invalid emoji code.'],
      [{ emoji_name: 'smile', emoji_code: '1f389' }, 'Invalid emoji name.'],
      [{ emoji_name: 'tada', reaction_type: 'sticker' }, 'Invalid emoji type.'],
      [{ emoji_name: 'party', emoji_code: '1', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ];
    for (const [params, msg] of bad) {
      const res = await react(mel, id, params);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.msg, msg);
    }
    assert.equal((await react(mel, id, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' })).status, 200);
    const dup = await react(mel, id, { emoji_name: 'tada' });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body, { result: 'error', msg: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
    assert.equal(ts.store.messages.get(id)!.reactions!.length, 1);
  });

  it('a second person reacting with another name for the same emoji keeps the first name', async () => {
    const id = await sendStream(sam, 'porch', 'votes', 'ship it?');
    assert.equal((await react(mel, id, { emoji_name: '+1' })).status, 200);
    assert.equal((await react(sam, id, { emoji_name: 'thumbs_up' })).status, 200);
    assert.deepEqual(ts.store.messages.get(id)!.reactions!.map((r) => [r.emoji_name, r.emoji_code, r.user_id]), [
      ['+1', '1f44d', melAcc.id],
      ['+1', '1f44d', samAcc.id],
    ]);
  });

  it('removes by name or by code (verifyAction); a missing reaction is REACTION_DOES_NOT_EXIST', async () => {
    const id = await sendStream(sam, 'porch', 'rm', 'x');
    await react(mel, id, { emoji_name: 'zulip' });
    await react(mel, id, { emoji_name: 'heart' });
    assert.deepEqual(ts.store.messages.get(id)!.reactions!.map((r) => [r.emoji_code, r.reaction_type]), [
      ['zulip', 'zulip_extra_emoji'],
      ['2764', 'unicode_emoji'],
    ]);
    const events = await verifyAction(mel, () => unreact(mel, id, { emoji_name: 'heart' }));
    assert.deepEqual(events.map((e) => [e.op, e.emoji_code]), [['remove', '2764']]);
    assert.equal((await unreact(mel, id, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' })).status, 200);
    assert.equal(ts.store.messages.get(id)!.reactions, undefined);
    const again = await unreact(mel, id, { emoji_name: 'heart' });
    assert.deepEqual(again.body, { result: 'error', msg: "Reaction doesn't exist.", code: 'REACTION_DOES_NOT_EXIST' });
  });

  it('reacting to a public message one never received adds it to one\'s history; private ones are invisible', async () => {
    const id = await sendStream(sam, 'porch', 'open', 'public');
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(id)!, ottoAcc.id), null);
    assert.equal((await react(otto, id, { emoji_name: 'eyes' })).status, 200);
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(id)!, ottoAcc.id), FLAG.read | FLAG.historical);
    const secret = await sendStream(sam, 'attic', 'shh', 'private');
    const res = await react(otto, secret, { emoji_name: 'eyes' });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Invalid message(s)');
    assert.equal(ts.store.messages.get(secret)!.reactions, undefined);
  });
});
