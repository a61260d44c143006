/**
 * Issue 36 (3, and the names of 9): nobody joins as the system bot or as someone's stand-in
 * address, and names cannot hide characters that make them read as someone else's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRecord } from '../../server/store/records.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

describe('reserved addresses and names', () => {
  let ts: TestServer;
  let key: string;
  let mel: Client;
  let melId: number;
  const password = 'long enough password';

  before(async () => {
    ts = await startTestServer();
    const link = (await ts.ownerClient.post('/invites/multiuse', { invite_expires_in_minutes: 'null' })).body.invite_link as string;
    key = /\/join\/([a-z0-9]{24})\/$/.exec(link)![1]!;
    const [m] = await ts.people('Mel');
    mel = m.client;
    melId = m.account.id;
  });
  after(() => ts.stop());

  const join = (email: string, fullName = 'New Person') =>
    ts.anonymous.post('/hearth/join', { key, email, full_name: fullName, password });
  const standIn = (id: number) => `user${id}@hearth.local`;

  it('an invitation cannot take a system bot address or one at the stand-in domain', async () => {
    const before = ts.store.users.count;
    // Fullwidth letters read as the bot's address (and NFKC makes them the same letters).
    const fullwidth = ['ｎｏｔｉｆｉｃａｔｉｏｎ-bot@zulip.com', `user${ts.owner.id}@ｈｅａｒｔｈ.local`];
    for (const email of ['notification-bot@zulip.com', 'Welcome-Bot@Zulip.com', 'emailgateway@zulip.com', standIn(ts.owner.id), 'anything@HEARTH.local', ...fullwidth]) {
      const res = await join(email);
      assert.equal(res.status, 400, email);
      assert.equal(res.body.result, 'error');
      assert.match(res.body.msg, /reserved/, email);
    }
    assert.equal(ts.store.users.count, before, 'no account was made');
    assert.equal((await join('someone@example.com')).status, 200, 'an ordinary address still joins');
  });

  it('nor can an administrator, the setup or an email change', async () => {
    const created = await ts.ownerClient.post('/users', { email: 'notification-bot@zulip.com', password, full_name: 'X' });
    assert.equal(created.status, 400);
    assert.match(created.body.msg, /reserved/);
    const changed = await ts.ownerClient.patch(`/users/${melId}`, { new_email: standIn(ts.owner.id) });
    assert.equal(changed.status, 400);
    assert.match(changed.body.msg, /reserved/);
    assert.notEqual(ts.store.users.get(melId)!.email, standIn(ts.owner.id));
  });

  it("a system bot's name is refused, for people and bots, however it is spelled", async () => {
    // Invisible marks that are not format characters (the grapheme joiner, variation selectors,
    // Mongolian and Khmer ones) and accents change nothing a reader sees either.
    const lookalikes = ['Notification Bot\u034f', 'Notification\u034fBot', 'Notification Bot\ufe0f', 'Notification Bot\u180b', 'Notification Bot\u17b4', 'Notification Bot\u{e0100}', 'Nótification Bot'];
    for (const name of ['Notification Bot', 'notification  bot', 'Welcome\u200b Bot', 'ＷＥＬＣＯＭＥ ＢＯＴ', ...lookalikes]) {
      const res = await mel.patch('/settings', { full_name: name });
      assert.equal(res.status, 400, name);
      assert.match(res.body.msg, /reserved for a system bot/, name);
    }
    const bot = await mel.post('/bots', { full_name: 'Notification Bot', short_name: 'notifier', bot_type: 1 });
    assert.equal(bot.status, 400);
    assert.equal((await join('nb@example.com', 'Notification Bot')).status, 400);
  });

  it('names lose invisible and direction-override characters; joiners inside words and emoji stay', async () => {
    const cases: [string, string][] = [
      ['Ma\u200bya', 'Maya'],
      ['Mal\u202eyrotc\u202c', 'Malyrotc'],
      ['\u2066Sam\u2069 \u200fLee\u200e', 'Sam Lee'],
      ['\ufeffKim\u2060 \u3164 Ho\u00ad', 'Kim Ho'],
      ['Ma\u034fya\u17b4\u17b5', 'Maya'],
      ['\u200dAli\u200d', 'Ali'],
      ['می\u200cخواهم', 'می\u200cخواهم'],
      ['Dev \u{1F469}\u200d\u{1F4BB}', 'Dev \u{1F469}\u200d\u{1F4BB}'],
    ];
    for (const [raw, clean] of cases) {
      const res = await mel.patch('/settings', { full_name: raw });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(ts.store.users.get(melId)!.full_name, clean, JSON.stringify(raw));
    }
    const blank = await mel.patch('/settings', { full_name: '\u200b\u202e\u3164' });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.msg, 'Name too short!');
    const joined = await join('rtl@example.com', 'Eve\u202egnaro');
    assert.equal(joined.status, 200);
    assert.equal(ts.store.users.byEmailAddress('rtl@example.com')!.full_name, 'Evegnaro');
  });

  it('an account that holds a reserved address from older data never takes the place of its owner', async () => {
    // Older data: an account created before the check, holding the owner's stand-in and the bot's address.
    const impostors: UserRecord[] = [];
    for (const email of [standIn(ts.owner.id), 'notification-bot@zulip.com']) {
      const res = await join(`tmp${impostors.length}@example.com`, 'Impostor');
      assert.equal(res.status, 200);
      const u = ts.store.users.byEmailAddress(`tmp${impostors.length}@example.com`)!;
      const old = u.email;
      u.email = email;
      ts.store.users.reindexEmail(u, old);
      impostors.push(u);
    }
    ts.store.realm.data.realm!.settings.email_address_visibility = 4; // nobody: the owner appears as user{id}@
    try {
      const sent = await mel.post('/messages', { type: 'direct', to: JSON.stringify([standIn(ts.owner.id)]), content: 'for the owner' });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const stored = ts.store.messages.get(sent.body.id)!;
      assert.deepEqual(stored.dm, [ts.owner.id, melId].sort((a, b) => a - b), 'the owner got it, not the impostor');
      const narrow = await mel.get('/messages', {
        anchor: 'newest', num_before: 5, num_after: 0,
        narrow: JSON.stringify([{ operator: 'dm', operand: standIn(ts.owner.id) }]),
      });
      assert.equal(narrow.status, 200);
      assert.deepEqual(narrow.body.messages.map((m: { id: number }) => m.id), [sent.body.id]);
      const toBot = await mel.post('/messages', { type: 'direct', to: JSON.stringify(['notification-bot@zulip.com']), content: 'hi bot' });
      assert.equal(toBot.status, 200);
      const botId = ts.store.users.collection.data.system_bots!.notification!;
      assert.ok(ts.store.messages.get(toBot.body.id)!.dm!.includes(botId), 'the system bot, not the impostor');
      assert.ok(!ts.store.messages.get(toBot.body.id)!.dm!.includes(impostors[1]!.id));
      // Nor does the impostor sign in with the reserved address.
      const login = await ts.anonymous.post('/fetch_api_key', { username: 'notification-bot@zulip.com', password });
      assert.equal(login.status, 401);
    } finally {
      ts.store.realm.data.realm!.settings.email_address_visibility = 1;
    }
  });
});
