import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Store } from '../../server/store/store.js';
import { FLAG } from '../../server/store/message-records.js';
import type { CustomEmoji } from '../../server/lib/emoji/reaction.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { castOf, type Cast, type Caller } from '../helpers/people.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

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

describe('reactions: who may react, who hears, Zulip\'s corner cases', () => {
  let ts: TestServer;
  let cast: Cast;
  const acc = (who: Caller) => cast[who as Exclude<Caller, 'anonymous'>];
  const react = (who: Caller, id: number, params: Record<string, string>) => cast.client(who).post(`/messages/${id}/reactions`, params);
  const unreact = (who: Caller, id: number, params: Record<string, string>) => cast.client(who).delete(`/messages/${id}/reactions`, params);
  const stored = (id: number) => (ts.store.messages.get(id)!.reactions ?? []).map((r) => [r.user_id, r.emoji_name, r.emoji_code, r.reaction_type]);
  async function listen(who: Caller[]) {
    const regs = new Map<Caller, { queue_id: string; last_event_id: number }>();
    for (const w of who) {
      const res = await cast.client(w).post('/register', { event_types: JSON.stringify(['reaction']) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      regs.set(w, res.body);
    }
    return async (w: Caller) => {
      const r = regs.get(w)!;
      return (await drain(cast.client(w), r.queue_id, r.last_event_id)).map(({ id: _i, ...e }) => e);
    };
  }
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
    await createChannel(ts, cast.client('member'), 'yard', { principals: JSON.stringify([acc('member').id, acc('moderator').id]) });
  });
  after(() => ts.stop());

  it('who may react: readers of the message (guests only in their channels; bots too); others see Invalid message(s)', async () => {
    const id = await sendStream(cast.client('member'), 'yard', 'who', 'react to me');
    for (const who of ['owner', 'admin', 'moderator', 'member', 'bot'] as const) {
      const res = await react(who, id, { emoji_name: 'octopus' });
      assert.equal(res.status, 200, `${who}: ${JSON.stringify(res.body)}`);
    }
    const guest = await react('guest', id, { emoji_name: 'octopus' });
    assert.deepEqual([guest.status, guest.body.msg], [400, 'Invalid message(s)']);
    for (const who of ['deactivated', 'anonymous'] as const) assert.equal((await react(who, id, { emoji_name: 'octopus' })).status, 401, who);
    assert.deepEqual(stored(id).map((r) => r[0]), ['owner', 'admin', 'moderator', 'member', 'bot'].map((w) => acc(w as Caller).id));
    const dm = await sendDirect(cast.client('member'), [acc('guest').id], 'hi guest');
    assert.equal((await react('guest', dm, { emoji_name: 'wave' })).status, 200);
    const other = await react('admin', dm, { emoji_name: 'wave' });
    assert.deepEqual([other.status, other.body.msg], [400, 'Invalid message(s)']);
    assert.equal((await unreact('admin', dm, { emoji_name: 'wave' })).body.msg, 'Invalid message(s)');
  });

  it('events go to subscribers and readers with a row, not to other users; the user object included', async () => {
    const id = await sendStream(cast.client('member'), 'yard', 'who hears', 'x');
    const read = await listen(['member', 'moderator', 'admin', 'guest']);
    assert.equal((await react('moderator', id, { emoji_name: 'fire' })).status, 200);
    const want = {
      type: 'reaction',
      op: 'add',
      user_id: acc('moderator').id,
      user: { user_id: acc('moderator').id, email: acc('moderator').email, full_name: ts.store.users.get(acc('moderator').id)!.full_name },
      message_id: id,
      emoji_name: 'fire',
      emoji_code: '1f525',
      reaction_type: 'unicode_emoji',
    };
    assert.deepEqual(await read('member'), [want]);
    assert.deepEqual(await read('moderator'), [want]);
    assert.deepEqual(await read('admin'), []); // not subscribed, never had the message
    assert.deepEqual(await read('guest'), []);
    // The administrator reacts: the message joins their history (a row), so they hear later reactions.
    assert.equal((await react('admin', id, { emoji_name: 'fire' })).status, 200);
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(id)!, acc('admin').id) !== null, true);
    const later = await listen(['admin']);
    assert.equal((await unreact('moderator', id, { emoji_name: 'fire' })).status, 200);
    assert.deepEqual((await later('admin')).map((e) => [e.op, e.user_id, e.emoji_code]), [['remove', acc('moderator').id, '1f525']]);
  });

  it('private channels with shared history: a later subscriber (no row) hears reactions; protected history: cannot react or hear', async () => {
    await createChannel(ts, cast.client('member'), 'nook', { invite_only: true, history_public_to_subscribers: true });
    await createChannel(ts, cast.client('member'), 'safe', { invite_only: true, history_public_to_subscribers: false });
    const shared = await sendStream(cast.client('member'), 'nook', 't', 'x');
    const guarded = await sendStream(cast.client('member'), 'safe', 't', 'y');
    for (const name of ['nook', 'safe']) {
      await cast.client('member').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify([acc('moderator').id]) });
    }
    const read = await listen(['moderator']);
    assert.equal((await react('member', shared, { emoji_name: 'heart' })).status, 200);
    assert.equal((await react('member', guarded, { emoji_name: 'heart' })).status, 200);
    assert.deepEqual((await read('moderator')).map((e) => e.message_id), [shared]);
    const res = await react('moderator', guarded, { emoji_name: 'heart' });
    assert.deepEqual([res.status, res.body.msg], [400, 'Invalid message(s)']);
  });

  it('Zulip\'s resolution rules: missing code or type from the name, votes keep the first name, removal defaults to unicode_emoji', async () => {
    const id = await sendStream(cast.client('member'), 'yard', 'rules', 'x');
    // A code without a type takes the type from the name.
    assert.equal((await react('member', id, { emoji_name: 'tada', emoji_code: '1f389' })).status, 200);
    // A type without a code takes the code from the name, then is checked.
    const mismatch = await react('member', id, { emoji_name: 'zulip', reaction_type: 'unicode_emoji' });
    assert.deepEqual([mismatch.status, mismatch.body.msg], [400, 'Invalid emoji code.']);
    // The duplicate check comes before validation.
    const dup = await react('member', id, { emoji_name: 'not_a_name', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
    assert.equal(dup.body.code, 'REACTION_ALREADY_EXISTS');
    // A vote for an existing reaction takes its name, whatever name the request gives.
    assert.equal((await react('moderator', id, { emoji_name: 'not_a_name', emoji_code: '1f389', reaction_type: 'unicode_emoji' })).status, 200);
    assert.equal((await react('moderator', id, { emoji_name: 'zulip' })).status, 200);
    assert.deepEqual(stored(id), [
      [acc('member').id, 'tada', '1f389', 'unicode_emoji'],
      [acc('moderator').id, 'tada', '1f389', 'unicode_emoji'],
      [acc('moderator').id, 'zulip', 'zulip', 'zulip_extra_emoji'],
    ]);
    // Removing by name looks up the code but keeps reaction_type's default (unicode_emoji).
    assert.equal((await unreact('moderator', id, { emoji_name: 'zulip' })).body.code, 'REACTION_DOES_NOT_EXIST');
    assert.equal((await unreact('moderator', id, { emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' })).status, 200);
    const none = await unreact('moderator', id, {});
    assert.deepEqual([none.status, none.body.msg], [400, 'At least one of the following arguments must be present: emoji_name, emoji_code']);
    const unknown = await unreact('moderator', id, { emoji_name: 'no_such_emoji' });
    assert.equal(unknown.body.msg, "Emoji 'no_such_emoji' does not exist");
    // The code alone identifies the reaction; no validation on removal.
    assert.equal((await unreact('moderator', id, { emoji_code: '1f389' })).status, 200);
    assert.deepEqual(stored(id), [[acc('member').id, 'tada', '1f389', 'unicode_emoji']]);
    const missing = await react('member', id, {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.msg, "Missing 'emoji_name' argument");
  });

  it('custom emoji through the installed source: by name, name and ID checked, deactivated ones only as votes and removals', async () => {
    const emoji: CustomEmoji[] = [
      { id: '7', name: 'hearth', deactivated: false },
      { id: '8', name: 'old_logo', deactivated: true },
    ];
    ts.app.customEmoji = {
      activeByName: (name) => emoji.find((e) => e.name === name && !e.deactivated),
      byId: (id) => emoji.find((e) => e.id === id),
    };
    const id = await sendStream(cast.client('member'), 'yard', 'custom', 'x');
    const bad: [Record<string, string>, string][] = [
      [{ emoji_name: 'hearth', emoji_code: '99', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      [{ emoji_name: 'hearthstone', emoji_code: '7', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
      [{ emoji_name: 'old_logo', emoji_code: '8', reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
      [{ emoji_name: 'old_logo' }, "Emoji 'old_logo' does not exist"],
    ];
    for (const [params, msg] of bad) assert.equal((await react('moderator', id, params)).body.msg, msg, JSON.stringify(params));
    assert.equal(stored(id).length, 0);
    assert.equal((await react('member', id, { emoji_name: 'hearth' })).status, 200);
    // Deactivated after the first reaction: others can still vote for it, and remove theirs.
    emoji[0]!.deactivated = true;
    assert.equal((await react('moderator', id, { emoji_name: 'hearth', emoji_code: '7', reaction_type: 'realm_emoji' })).status, 200);
    assert.equal((await unreact('moderator', id, { emoji_code: '7', reaction_type: 'realm_emoji' })).status, 200);
    assert.deepEqual(stored(id), [[acc('member').id, 'hearth', '7', 'realm_emoji']]);
  });

  it('archived channels: reactions can be neither added nor removed', async () => {
    const arch = await createChannel(ts, cast.client('member'), 'shed');
    const id = await sendStream(cast.client('member'), 'shed', 't', 'x');
    assert.equal((await react('member', id, { emoji_name: 'tada' })).status, 200);
    assert.equal((await ts.ownerClient.delete(`/streams/${arch}`)).status, 200);
    assert.equal((await react('member', id, { emoji_name: 'smile' })).body.msg, 'Invalid message(s)');
    assert.equal((await unreact('member', id, { emoji_name: 'tada' })).body.msg, 'Invalid message(s)');
    assert.equal(stored(id).length, 1);
  });

  it('reactions survive a restart and show on fetched messages', async () => {
    const id = await sendStream(cast.client('member'), 'yard', 'durable', 'x');
    assert.equal((await react('moderator', id, { emoji_name: 'rocket' })).status, 200);
    await ts.app.store.settled();
    ts = await restart(ts);
    const m = (await ts.client(acc('member')).get(`/messages/${id}`)).body.message;
    assert.deepEqual(m.reactions, [{ emoji_name: 'rocket', emoji_code: '1f680', reaction_type: 'unicode_emoji', user_id: acc('moderator').id }]);
    assert.equal((await ts.client(acc('moderator')).delete(`/messages/${id}/reactions`, { emoji_name: 'rocket' })).status, 200);
    assert.equal(ts.store.messages.get(id)!.reactions, undefined);
  });
});
