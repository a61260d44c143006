import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { USER_SETTINGS } from '../../server/lib/people/settings.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

const MODERN = { fetch_event_types: ['user_settings'], client_capabilities: JSON.stringify({ user_settings_object: true }) };
const LEGACY = { fetch_event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'] };

describe('personal settings: PATCH /settings, register and events', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    mel = ts.client(melAcc);
  });
  after(() => ts.stop());

  const stored = async () => JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users.find((u: { id: number }) => u.id === melAcc.id);

  it('register: a user_settings object for every client, no top-level copies (Zulip 12, feature level 439), Zulip\'s defaults', async () => {
    const modern = (await mel.post('/register', MODERN)).body;
    for (const k of ['starred_message_counts', 'display_emoji_reaction_users', 'emojiset', 'presence_enabled', 'twenty_four_hour_time']) {
      assert.ok(k in modern.user_settings, k);
    }
    assert.equal(modern.user_settings.emojiset, 'google');
    assert.ok(Array.isArray(modern.user_settings.emojiset_choices));
    assert.ok(!('twenty_four_hour_time' in modern));
    const legacy = (await mel.post('/register', LEGACY)).body;
    for (const k of Object.keys(USER_SETTINGS)) assert.ok(!(k in legacy), `${k} is not repeated at the top level`);
    assert.equal(legacy.user_settings.enter_sends, true, 'the object is sent to every client');
    // Only the legacy names: nothing (Zulip 12 serves no legacy section).
    const namesOnly = (await mel.post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] })).body;
    assert.ok(!('user_settings' in namesOnly) && !('enter_sends' in namesOnly));
    // Spectators get the defaults (a web-public organization is not needed to check the object's shape here).
    assert.equal(Object.keys(modern.user_settings).length, Object.keys(legacy.user_settings).length);
  });

  it('changes settings durably, each announced (verifyAction, both client kinds)', async () => {
    const legacyReg = await mel.post('/register', { event_types: JSON.stringify(['user_settings']) });
    // The terminal client lists only the legacy names; one queue asks for display settings alone.
    const legacyNames = await mel.post('/register', { event_types: JSON.stringify(['update_display_settings', 'update_global_notifications']) });
    const displayOnly = await mel.post('/register', { event_types: JSON.stringify(['update_display_settings']) });
    const events = await verifyAction(mel, async () => {
      const res = await mel.patch('/settings', { twenty_four_hour_time: true, emojiset: 'text', enter_sends: false, default_language: 'de' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, MODERN);
    const byName = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
    assert.deepEqual(events.map((e) => [e.type, e.property, e.value]).sort(byName), [
      ['user_settings', 'default_language', 'de'],
      ['user_settings', 'emojiset', 'text'],
      ['user_settings', 'enter_sends', false],
      ['user_settings', 'twenty_four_hour_time', true],
    ]);
    assert.equal(events.find((e) => e.property === 'default_language')!.language_name, 'Deutsch');
    // A client without user_settings_object gets user_settings events too: the legacy forms are gone (feature level 439).
    const legacy = await drain(mel, legacyReg.body.queue_id, legacyReg.body.last_event_id);
    assert.deepEqual(legacy.map((e) => [e.type, e.property, e.value]).sort(byName), events.map((e) => [e.type, e.property, e.value]).sort(byName));
    // Queues that listed only the legacy names hear nothing.
    assert.deepEqual(await drain(mel, legacyNames.body.queue_id, legacyNames.body.last_event_id), []);
    assert.deepEqual(await drain(mel, displayOnly.body.queue_id, displayOnly.body.last_event_id), []);
    await verifyAction(mel, () => mel.patch('/settings', { starred_message_counts: false }), LEGACY);
    await ts.app.store.settled();
    const u = await stored();
    assert.equal(u.user_settings.twenty_four_hour_time, true);
    assert.equal(u.user_settings.starred_message_counts, false);
  });

  it('GET /settings reads the same object register sends, after a change, and needs a login', async () => {
    const reg = (await mel.post('/register', MODERN)).body;
    const got = await mel.get('/settings');
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.deepEqual(got.body.user_settings, reg.user_settings);
    const flipped = !got.body.user_settings.left_side_userlist;
    assert.equal((await mel.patch('/settings', { left_side_userlist: flipped })).status, 200);
    assert.equal((await mel.get('/settings')).body.user_settings.left_side_userlist, flipped);
    const anon = await ts.anonymous.get('/settings');
    assert.equal(anon.status, 401);
    assert.equal(anon.body.result, 'error');
  });

  it('validates every kind of setting; nothing is stored on error', async () => {
    const before = await stored();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ emojiset: 'comic' }, /Invalid emojiset/],
      [{ twenty_four_hour_time: 'yes' }, /is not valid JSON|is not a boolean/],
      [{ color_scheme: 9 }, /Invalid color_scheme/],
      [{ web_font_size_px: 3 }, /Invalid web_font_size_px/],
      [{ timezone: 'Mars/Olympus' }, /Invalid timezone/],
      [{ demote_inactive_streams: 1.5 }, /is not an integer/],
      [{}, /Please choose one or more settings to change/],
      [{ new_password: 'abcdefghi' }, /Missing 'old_password' argument/],
      [{ old_password: 'wrong one!', new_password: 'abcdefghi' }, /Wrong password!/],
      [{ full_name: '' }, /Name too short!/],
    ];
    for (const [params, msg] of cases) {
      const res = await mel.patch('/settings', params as never);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.match(res.body.msg, msg);
    }
    assert.deepEqual(await stored(), before);
    // Every table entry accepts its own default.
    for (const [name, spec] of Object.entries(USER_SETTINGS)) {
      const res = await mel.patch('/settings', { [name]: spec.type === 'string' ? spec.default : JSON.stringify(spec.default) } as never);
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
    }
  });

  it('changes the full name, the timezone and the password', async () => {
    assert.equal((await mel.patch('/settings', { full_name: 'Melanie', timezone: 'Europe/Berlin' })).status, 200);
    assert.equal(ts.store.users.get(melAcc.id)!.full_name, 'Melanie');
    assert.equal(ts.store.users.get(melAcc.id)!.timezone, 'Europe/Berlin');
    const res = await mel.patch('/settings', { old_password: melAcc.password, new_password: 'a brand new secret' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const login = await ts.anonymous.post('/fetch_api_key', { username: melAcc.email, password: 'a brand new secret' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
  });

  it('wrong old passwords count against the account like failed sign-ins (429 once over the limit)', async () => {
    const sam = await ts.addUser('Sam');
    const c = ts.client(sam);
    for (let i = 0; i < 10; i++) {
      const res = await c.patch('/settings', { old_password: `wrong ${i}`, new_password: 'abcdefghij' });
      assert.equal(res.body.msg, 'Wrong password!', `attempt ${i}`);
    }
    const limited = await c.patch('/settings', { old_password: sam.password, new_password: 'abcdefghij' });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'RATE_LIMIT_HIT');
    // Signing in as Sam is limited too: one count per account.
    assert.equal((await ts.anonymous.post('/fetch_api_key', { username: sam.email, password: sam.password })).status, 429);
  });
});
