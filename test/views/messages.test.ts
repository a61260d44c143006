import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { fetchMessages, sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer, assertError } from '../helpers/server.js';

const ids = (body: { messages: { id: number }[] }) => body.messages.map((m) => m.id);

describe('GET /messages', () => {
  let ts: TestServer;
  let cast: Cast;
  let owner: Client;
  let member: Client;
  let admin: Client;
  let guest: Client;
  let general: number;
  const sent: number[] = [];
  let dmId = 0;
  let groupDm = 0;
  let secretId = 0;

  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    owner = ts.ownerClient;
    member = ts.client(cast.member);
    admin = ts.client(cast.admin);
    guest = ts.client(cast.guest);
    general = await createChannel(ts, owner, 'general', { principals: JSON.stringify([cast.owner.id, cast.member.id]) });
    for (let i = 0; i < 10; i++) sent.push(await sendStream(i % 2 ? member : owner, 'general', i < 5 ? 'alpha' : 'Beta', `message number ${i}`));
    dmId = await sendDirect(member, [cast.owner.id], 'a private word');
    groupDm = await sendDirect(member, [cast.owner.id, cast.admin.id], 'group chat');
    await createChannel(ts, owner, 'secret', { invite_only: true, history_public_to_subscribers: false });
    secretId = await sendStream(owner, 'secret', 'hidden', 'protected history');
  });
  after(() => ts.stop());

  it('anchors at newest, oldest, an ID and the first unread, with the found_* flags', async () => {
    const newest = await fetchMessages(owner, { narrow: [{ operator: 'channel', operand: 'general' }], num_before: 3 });
    assert.deepEqual(ids(newest), sent.slice(7));
    assert.equal(newest.anchor, 10_000_000_000_000_000);
    assert.equal(newest.found_newest, true);
    assert.equal(newest.found_oldest, false);
    assert.equal(newest.found_anchor, false);
    assert.equal(newest.history_limited, false);
    const oldest = await fetchMessages(owner, { narrow: [['stream', 'general']], anchor: 'oldest', num_before: 0, num_after: 4 });
    assert.deepEqual(ids(oldest), sent.slice(0, 4));
    assert.equal(oldest.found_oldest, true);
    assert.equal(oldest.found_newest, false);
    const mid = await fetchMessages(owner, { narrow: [['stream', 'general']], anchor: String(sent[5]), num_before: 2, num_after: 2 });
    assert.deepEqual(ids(mid), sent.slice(3, 8));
    assert.equal(mid.found_anchor, true);
    const excl = await fetchMessages(owner, {
      narrow: [['stream', 'general']],
      anchor: sent[5],
      num_before: 2,
      num_after: 0,
      include_anchor: false,
    });
    assert.deepEqual(ids(excl), [sent[3], sent[4]]);
    assert.equal(excl.found_anchor, false);
    const exclAfter = await fetchMessages(owner, { narrow: [['stream', 'general']], anchor: sent[5], num_before: 0, num_after: 2, include_anchor: false });
    assert.deepEqual(ids(exclAfter), [sent[6], sent[7]]);
    // Zulip: the anchor may only be left out at an end of the range.
    for (const path of ['/messages', '/messages/flags/narrow']) {
      const params = { narrow: JSON.stringify([['stream', 'general']]), anchor: String(sent[5]), num_before: 2, num_after: 2, include_anchor: false };
      const res = path === '/messages' ? await owner.get(path, params) : await owner.post(path, { ...params, op: 'add', flag: 'starred' });
      assertError(res, 'The anchor can only be excluded at an end of the range');
    }
    assert.equal(ts.store.messages.starred(cast.owner.id).length, 0);
    // The owner has not read member's messages: the first unread one is sent[1].
    const unread = await fetchMessages(owner, { narrow: [['stream', 'general']], anchor: 'first_unread', num_before: 0, num_after: 1 });
    assert.equal(unread.anchor, sent[1]);
    assert.deepEqual(ids(unread), [sent[1], sent[2]]);
    assert.equal(unread.found_anchor, true);
    const legacy = await fetchMessages(owner, { narrow: [['stream', 'general']], use_first_unread_anchor: true, num_before: 0, num_after: 1 });
    assert.equal(legacy.anchor, sent[1]);
    const all = await fetchMessages(owner, { anchor: 'oldest', num_before: 0, num_after: 100 });
    assert.deepEqual(ids(all), [...sent, dmId, groupDm, secretId]);
    assert.equal(all.found_newest, true);
  });

  it('validates anchor, counts and message_ids', async () => {
    assertError(await owner.get('/messages', { anchor: 'soon', num_before: 1, num_after: 1 }), 'Invalid anchor');
    assertError(await owner.get('/messages', { num_before: 1, num_after: 1 }), "Missing 'anchor' argument.");
    assertError(await owner.get('/messages', { anchor: 'newest', num_after: 1 }), "Missing 'num_before' argument", 'REQUEST_VARIABLE_MISSING');
    assertError(await owner.get('/messages', { anchor: 'newest', num_before: 5000, num_after: 1 }), 'Too many messages requested (maximum 5000).');
    const byIds = await owner.get('/messages', { message_ids: [sent[2], sent[0], 999999] });
    assert.deepEqual(byIds.body.messages.map((m: { id: number }) => m.id), [sent[0], sent[2]]);
    // Zulip answers no anchor and the found_* flags false.
    assert.equal(byIds.body.anchor, undefined);
    assert.deepEqual([byIds.body.found_anchor, byIds.body.found_oldest, byIds.body.found_newest], [false, false, false]);
    assert.equal(byIds.body.history_limited, false);
    // A range request conflicts with message_ids; zero counts, use_first_unread_anchor=false and include_anchor do not.
    const conflict =
      'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
    for (const extra of [{ anchor: 'newest' }, { num_before: 1 }, { num_after: 2 }, { use_first_unread_anchor: true }]) {
      assertError(await owner.get('/messages', { message_ids: [sent[0]], ...extra }), conflict);
    }
    const compatible = await owner.get('/messages', {
      message_ids: [sent[1], sent[0]],
      num_before: 0,
      num_after: 0,
      include_anchor: true,
      use_first_unread_anchor: false,
    });
    assert.equal(compatible.status, 200, JSON.stringify(compatible.body));
    assert.deepEqual(compatible.body.messages.map((m: { id: number }) => m.id), [sent[0], sent[1]]);
    assert.equal(compatible.body.ignored_parameters_unsupported, undefined);
    // At most 5000 IDs (duplicates count), as for ranges.
    // (Brackets and commas left unescaped, to keep the query under the HTTP header limit.)
    const byRawIds = (list: number[]) => owner.call('GET', `/api/v1/messages?message_ids=${JSON.stringify(list)}`, {}, { raw: true });
    assertError(await byRawIds(Array(5001).fill(0)), 'Too many messages requested (maximum 5000).');
    const most = await byRawIds([...Array(4997).fill(0), sent[4], sent[3], sent[4]]);
    assert.equal(most.status, 200, JSON.stringify(most.body));
    assert.deepEqual(most.body.messages.map((m: { id: number }) => m.id), [sent[3], sent[4]]);
  });

  it('narrows by topic, sender, dm, dm-including, is, has, id and search, in both forms and negated', async () => {
    const n = async (narrow: object) => ids(await fetchMessages(owner, { narrow }));
    assert.deepEqual(await n([{ operator: 'channel', operand: general }, { operator: 'topic', operand: 'beta' }]), sent.slice(5));
    assert.deepEqual(await n([['stream', 'general'], ['subject', 'alpha']]), sent.slice(0, 5));
    assert.deepEqual(
      await n([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'alpha', negated: true }]),
      sent.slice(5),
    );
    assert.deepEqual(await n([{ operator: 'sender', operand: cast.member.id }, { operator: 'channel', operand: 'general' }]), [
      sent[1], sent[3], sent[5], sent[7], sent[9],
    ]);
    assert.deepEqual(await n([['sender', cast.member.email], ['is', 'dm']]), [dmId, groupDm]);
    assert.deepEqual(await n([{ operator: 'dm', operand: [cast.member.id] }]), [dmId]);
    assert.deepEqual(await n([['pm-with', cast.member.email]]), [dmId]);
    assert.deepEqual(await n([{ operator: 'dm', operand: [cast.member.id, cast.admin.id] }]), [groupDm]);
    assert.deepEqual(await n([{ operator: 'dm-including', operand: cast.admin.id }]), [groupDm]);
    assert.deepEqual(await n([['is', 'private']]), [dmId, groupDm]);
    assert.deepEqual(await n([{ operator: 'is', operand: 'dm', negated: true }, { operator: 'channel', operand: 'general' }]), sent);
    assert.deepEqual(await n([{ operator: 'id', operand: sent[4] }]), [sent[4]]);
    assert.deepEqual(await n([['is', 'starred']]), []);
    assert.deepEqual(await n([['has', 'reaction']]), []);
    assert.deepEqual(await n([{ operator: 'search', operand: 'number 3' }]), [sent[3]]);
    assert.deepEqual(await n([{ operator: 'search', operand: 'PRIV' }]), [dmId]);
    assert.deepEqual(await n([['is', 'unread'], ['stream', 'general']]), [sent[1], sent[3], sent[5], sent[7], sent[9]]);
    const near = await fetchMessages(owner, { narrow: [['stream', 'general'], ['near', String(sent[2])]], anchor: sent[2], num_before: 1, num_after: 1 });
    assert.deepEqual(ids(near), sent.slice(1, 4));
    const withOp = await n([{ operator: 'with', operand: sent[6] }]);
    assert.deepEqual(withOp, sent.slice(5));
  });

  it('highlights search matches', async () => {
    const body = await fetchMessages(owner, { narrow: [{ operator: 'search', operand: 'number' }, { operator: 'topic', operand: 'alpha' }], num_before: 1 });
    const m = body.messages[0];
    assert.match(m.match_content, /<span class="highlight">number<\/span>/);
    assert.equal(m.match_subject, 'alpha');
  });

  it('answers BAD_NARROW for unknown operators, channels, users and operands', async () => {
    const bad = async (narrow: object, msg: string) =>
      assertError(await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), msg, 'BAD_NARROW');
    await bad([{ operator: 'colour', operand: 'red' }], 'Invalid narrow operator: unknown operator colour');
    await bad([['stream', 'nowhere']], 'Invalid narrow operator: unknown channel nowhere');
    await bad([['sender', 'ghost@example.com']], 'Invalid narrow operator: unknown user ghost@example.com');
    await bad([['is', 'shiny']], "Invalid narrow operator: unknown 'is' operand shiny");
    await bad([['has', 'cats']], "Invalid narrow operator: unknown 'has' operand cats");
    assertError(await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[["a"]]' }), 'narrow[0] is not a string pair');
  });

  it('follows Zulip on channel-and-DM mixes, group-pm-with, underscore aliases and unreadable with targets', async () => {
    const n = async (narrow: object) => ids(await fetchMessages(owner, { narrow }));
    const bad = async (narrow: object, msg: string) =>
      assertError(await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow }), msg, 'BAD_NARROW');
    const both = 'Invalid narrow operator: No message can be both a channel message and direct message';
    await bad([{ operator: 'channel', operand: 'general' }, { operator: 'dm', operand: [cast.member.id] }], both);
    await bad([['topic', 'alpha'], ['is', 'dm']], both);
    await bad([['streams', 'public'], ['dm-including', cast.member.id]], both);
    // A negated term does not count.
    assert.deepEqual(await n([{ operator: 'is', operand: 'dm', negated: true }, { operator: 'channel', operand: 'general' }]), sent);
    assert.deepEqual(await n([{ operator: 'channel', operand: 'general', negated: true }, ['dm', [cast.member.id]]]), [dmId]);
    // group-pm-with (deprecated) only finds group conversations; dm-including also finds the one-to-one.
    assert.deepEqual(await n([['group-pm-with', cast.member.email]]), [groupDm]);
    assert.deepEqual(await n([['dm-including', cast.member.email]]), [dmId, groupDm]);
    assert.deepEqual(await n([['pm_with', cast.member.email]]), [dmId]);
    assert.deepEqual(await n([['group_pm_with', cast.member.id]]), [groupDm]);
    // with: a message the user cannot read leaves a narrow that names a conversation, else BAD_NARROW.
    const memberN = async (narrow: object) => ids(await fetchMessages(member, { narrow }));
    assert.deepEqual(await memberN([['with', secretId], ['dm', [cast.owner.id]]]), [dmId]);
    assert.deepEqual(await memberN([['with', secretId], ['channel', 'general'], ['topic', 'alpha']]), sent.slice(0, 5));
    // Two with operators: Zulip's InvalidOperatorCombinationError, whatever the targets.
    for (const narrow of [[['with', sent[0]], ['with', sent[6]]], [['with', sent[0]], { operator: 'with', operand: sent[0], negated: true }]]) {
      const res = await member.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
      assertError(res, "Invalid narrow operator combination: Duplicate 'with' operators.", 'BAD_NARROW');
      assert.equal(res.body.desc, "Duplicate 'with' operators.");
      assertError(
        await member.get('/messages/matches_narrow', { msg_ids: [sent[0]], narrow }),
        "Invalid narrow operator combination: Duplicate 'with' operators.",
        'BAD_NARROW',
      );
    }
    for (const narrow of [[['with', secretId]], [['with', secretId], ['channel', 'general']], [['with', 'abc']]]) {
      assertError(
        await member.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow }),
        "Invalid narrow operator: Invalid 'with' operator",
        'BAD_NARROW',
      );
    }
  });

  it('applies history rules: public history for channel narrows, protected history, guests', async () => {
    // The admin never subscribed to general: a channel narrow shows its history, flagged historical.
    const pub = await fetchMessages(admin, { narrow: [['stream', 'general']] });
    assert.deepEqual(ids(pub), sent);
    assert.deepEqual(pub.messages[0].flags, ['read', 'historical']);
    // Without a channel narrow only received messages appear.
    assert.deepEqual(ids(await fetchMessages(admin, {})), [groupDm]);
    // channels:public includes history too.
    assert.deepEqual(ids(await fetchMessages(admin, { narrow: [{ operator: 'channels', operand: 'public' }] })), sent);
    // Protected history: a new subscriber does not see older messages.
    await owner.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'secret' }]), principals: JSON.stringify([cast.member.id]) });
    assert.deepEqual(ids(await fetchMessages(member, { narrow: [['stream', 'secret']] })), []);
    assert.equal((await member.get(`/messages/${secretId}`)).status, 400);
    // Guests: no public history without a subscription.
    assert.deepEqual(ids(await fetchMessages(guest, { narrow: [['stream', 'general']] })), []);
    assertError(await guest.get(`/messages/${sent[0]}`), 'Invalid message(s)');
    assert.deepEqual(ids(await fetchMessages(guest, { narrow: [{ operator: 'channels', operand: 'public' }] })), []);
  });

  it('GET /messages/{id}, its history and raw content', async () => {
    const res = await member.get(`/messages/${sent[1]}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.raw_content, 'message number 1');
    assert.equal(res.body.message.id, sent[1]);
    assert.equal(res.body.message.content_type, 'text/html');
    const raw = await member.get(`/messages/${sent[1]}`, { apply_markdown: false });
    assert.equal(raw.body.message.content, 'message number 1');
    const hist = await member.get(`/messages/${sent[1]}/history`);
    assert.equal(hist.body.message_history.length, 1);
    assert.equal(hist.body.message_history[0].content, 'message number 1');
    assert.equal(hist.body.message_history[0].user_id, cast.member.id);
    assertError(await member.get('/messages/999999'), 'Invalid message(s)');
  });

  it('GET /messages/matches_narrow answers only the matching received IDs', async () => {
    const res = await owner.get('/messages/matches_narrow', {
      msg_ids: [sent[0], sent[6], dmId],
      narrow: [{ operator: 'topic', operand: 'beta' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.messages), [String(sent[6])]);
    assert.equal(res.body.messages[String(sent[6])].match_subject, 'Beta');
    const search = await owner.get('/messages/matches_narrow', { msg_ids: [dmId], narrow: [{ operator: 'search', operand: 'word' }] });
    assert.match(search.body.messages[String(dmId)].match_content, /highlight">word</);
    // The admin never received general's messages.
    const none = await admin.get('/messages/matches_narrow', { msg_ids: [sent[0]], narrow: [] });
    assert.deepEqual(none.body.messages, {});
  });

  it('GET /users/me/{stream_id}/topics lists topics newest first', async () => {
    const res = await member.get(`/users/me/${general}/topics`);
    assert.deepEqual(res.body.topics, [
      { name: 'Beta', max_id: sent[9] },
      { name: 'alpha', max_id: sent[4] },
    ]);
    assertError(await guest.get(`/users/me/${general}/topics`), 'Invalid channel ID');
    const empty = await sendStream(member, 'general', '', 'no topic');
    const t1 = await member.get(`/users/me/${general}/topics`);
    assert.deepEqual(t1.body.topics[0], { name: 'general chat', max_id: empty });
    const t2 = await member.get(`/users/me/${general}/topics`, { allow_empty_topic_name: true });
    assert.deepEqual(t2.body.topics[0], { name: '', max_id: empty });
  });
});

describe('GET /messages for spectators', () => {
  let ts: TestServer;
  let web = 0;
  let webMsg = 0;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
    web = await createChannel(ts, ts.ownerClient, 'web');
    ts.store.channels.data.channels.find((c) => c.id === web)!.is_web_public = true;
    await createChannel(ts, ts.ownerClient, 'members');
    webMsg = await sendStream(ts.ownerClient, 'web', 'hello', 'for everyone');
    await sendStream(ts.ownerClient, 'members', 'hello', 'members only');
  });
  after(() => ts.stop());

  it('reads web-public channels only, flagged read, and needs a web-public narrow', async () => {
    const get = (narrow: object) => ts.anonymous.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    const res = await get([{ operator: 'channels', operand: 'web-public' }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(ids(res.body), [webMsg]);
    assert.deepEqual(res.body.messages[0].flags, ['read']);
    assert.deepEqual(ids((await get([['stream', 'web']])).body), [webMsg]);
    assert.equal((await get([['stream', 'members']])).status, 401);
    assert.equal((await get([])).status, 401);
    assert.equal((await get([['stream', 'web'], ['is', 'starred']])).status, 401);
    // Zulip drops a spectator's in:home (not a negated one) before checking the narrow.
    assert.deepEqual(ids((await get([{ operator: 'channels', operand: 'web-public' }, ['in', 'home']])).body), [webMsg]);
    assert.equal((await get([{ operator: 'channels', operand: 'web-public' }, { operator: 'in', operand: 'home', negated: true }])).status, 401);
    ts.store.realm.data.realm!.settings.enable_spectator_access = false;
    assert.equal((await get([['stream', 'web']])).status, 401);
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
  });

  it('message_ids with a web-public narrow: only the web-public messages come back', async () => {
    const members = ts.store.messages.channel(ts.store.channels.data.channels.find((c) => c.name === 'members')!.id).at(0);
    const byIds = (narrow: object) => ts.anonymous.get('/messages', { message_ids: JSON.stringify([webMsg, members]), narrow });
    const res = await byIds([{ operator: 'channels', operand: 'web-public' }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(ids(res.body), [webMsg]);
    assert.deepEqual(res.body.messages[0].flags, ['read']);
    assert.equal((await byIds([])).status, 401, 'a narrow without a web-public channel is refused');
    assert.equal((await byIds([['stream', 'members']])).status, 401);
  });
});
