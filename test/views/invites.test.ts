import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../server/log.js';
import { startServer } from '../../server/start.js';
import { createChannel } from '../helpers/channels.js';
import { Client, startTestServer, type Account, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

describe('invite links', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 8, 1, 12, 0, 0);
  let owner: Client;
  let admin: Client;
  let mel: Client;
  let melAcc: Account;
  let kitchen: number;
  let lobby: number;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    owner = ts.ownerClient;
    admin = ts.client(await ts.addUser('Ada', 200));
    [{ account: melAcc, client: mel }] = await ts.people('Mel');
    kitchen = await createChannel(ts, owner, 'kitchen');
    lobby = await createChannel(ts, owner, 'lobby');
    assert.equal((await owner.post('/default_streams', { stream_id: lobby })).status, 200);
  });
  after(() => ts.stop());

  const keyOf = (link: string) => /\/join\/([a-z0-9]{24})\/$/.exec(link)![1]!;
  const join_ = (params: Record<string, string>) => ts.anonymous.post('/hearth/join', params);

  it('an administrator creates a link (invites_changed to administrators); GET /invites lists it', async () => {
    const adminReg = (await admin.post('/register', { event_types: JSON.stringify(['invites_changed']) })).body;
    const melReg = (await mel.post('/register', { event_types: JSON.stringify(['invites_changed']) })).body;
    let link = '';
    await verifyAction(owner, async () => {
      const res = await owner.post('/invites/multiuse', { stream_ids: JSON.stringify([kitchen]), include_realm_default_subscriptions: 'true' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      link = res.body.invite_link;
    }, { fetch_event_types: ['realm'] });
    assert.match(link, new RegExp(`^${ts.url}/join/[a-z0-9]{24}/$`));
    assert.deepEqual((await drain(admin, adminReg.queue_id, adminReg.last_event_id)).map((e) => e.type), ['invites_changed']);
    assert.deepEqual(await drain(mel, melReg.queue_id, melReg.last_event_id), [], 'members do not hear of it');
    const invites = (await owner.get('/invites')).body.invites;
    assert.deepEqual(invites, [{
      id: invites[0].id, invited_by_user_id: ts.owner.id, invited: Math.floor(now / 1000), expiry_date: Math.floor(now / 1000) + 10 * 86400,
      invited_as: 400, is_multiuse: true, link_url: link,
    }]);
    assert.equal((await admin.get('/invites')).body.invites.length, 1, 'administrators see every invite');
    assert.deepEqual((await mel.get('/invites')).body.invites, [], 'others see their own');
    await ts.store.settled();
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'invites.json'), 'utf8')).invites;
    assert.equal(stored[0].key, keyOf(link));
  });

  it('a colleague joins with it: the invite\'s role and channels, default channels too, can log in', async () => {
    const link = (await owner.get('/invites')).body.invites[0].link_url as string;
    // The link is the join page itself (renderer/join/), under the strict CSP; without its slash it goes there.
    const page = await fetch(link, { redirect: 'manual' });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer', 'the key in the address reaches no other request');
    assert.match(await page.text(), /src="\/static\/web\/join-[0-9a-f]{12}\.js"/);
    const bare = await fetch(link.replace(/\/$/, ''), { redirect: 'manual' });
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.get('location'), `/join/${keyOf(link)}/`);
    const res = await join_({ key: keyOf(link), email: 'newbie@example.com', full_name: 'New Bie', password: 'long enough password' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.email, res.body.realm_url], ['newbie@example.com', ts.url]);
    const user = ts.store.users.get(res.body.user_id)!;
    assert.deepEqual([user.full_name, user.role, user.is_active], ['New Bie', 400, true]);
    const subs = ts.store.subscriptions.data.subscriptions.filter((s) => s.user_id === user.id && s.active).map((s) => s.stream_id).sort();
    assert.deepEqual(subs, [kitchen, lobby].sort());
    const login = await ts.anonymous.post('/fetch_api_key', { username: 'newbie@example.com', password: 'long enough password' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    // The link keeps working for the next colleague; a taken email or a short password is refused.
    for (const [params, msg] of [
      [{ email: 'newbie@example.com', full_name: 'Again', password: 'long enough password' }, "Email 'newbie@example.com' already in use"],
      [{ email: 'other@example.com', full_name: 'Other', password: 'short' }, 'The password is too short: use at least 8 characters.'],
      [{ email: 'not an email', full_name: 'Other', password: 'long enough password' }, "Invalid email 'not an email'"],
    ] as const) {
      const bad = await join_({ key: keyOf(link), ...params });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.msg, msg);
    }
    const missing = await join_({ key: keyOf(link), email: 'x@example.com', password: 'long enough password' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    const wrong = await join_({ key: 'nosuchkey', email: 'x@example.com', full_name: 'X', password: 'long enough password' });
    assert.equal(wrong.body.msg, 'This invite link has expired or was revoked. Ask for a new one.');
    assert.equal((await fetch(`${ts.url}/join/NOT-A-KEY/`, { redirect: 'manual' })).status, 404);
    assert.equal(res.headers.get('set-cookie'), null, 'through /api/v1 no browser session');
  });

  it('through /json/hearth/join (the join page) the browser is signed in too, replacing the session its cookie named', async () => {
    const link = (await owner.get('/invites')).body.invites[0].link_url as string;
    const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
    const headers = (cookie?: string) => ({ 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) });
    // Someone already signed in on this browser (Mel): the new account's session takes the cookie's place.
    const before = await fetch(`${ts.url}/json/login`, { method: 'POST', headers: headers(), body: form({ username: melAcc.email, password: melAcc.password }) });
    assert.equal(before.status, 200);
    const melCookie = /^hearth_session=[^;]+/.exec(before.headers.getSetCookie()[0]!)![0];

    const res = await fetch(`${ts.url}/json/hearth/join`, {
      method: 'POST',
      headers: headers(melCookie),
      body: form({ key: keyOf(link), email: 'webbie@example.com', full_name: 'Web Bie', password: 'long enough password' }),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual([body.email, body.realm_url], ['webbie@example.com', ts.url]);
    const cookies = res.headers.getSetCookie();
    assert.equal(cookies.length, 1);
    assert.match(cookies[0]!, /^hearth_session=[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$/);
    const cookie = /^hearth_session=[^;]+/.exec(cookies[0]!)![0];

    const session = await fetch(`${ts.url}/json/session`, { headers: { cookie } });
    const who = await session.json();
    assert.equal(session.status, 200);
    assert.deepEqual([who.user_id, who.email], [body.user_id, 'webbie@example.com']);
    assert.equal(ts.store.sessions.all().filter((s) => s.user_id === melAcc.id).length, 0, "Mel's session in this browser ended");
    assert.equal((await fetch(`${ts.url}/json/users/me`, { headers: { cookie: melCookie } })).status, 401);
    assert.equal((await fetch(`${ts.url}/json/users/me`, { headers: { cookie } })).status, 200);
  });

  it('permissions: members need create_multiuse_invite_group, guests never; only owners invite owners', async () => {
    const member = await mel.post('/invites/multiuse', {});
    assert.equal(member.body.msg, 'Insufficient permission');
    const guest = await ts.client(await ts.addUser('Gus', 600)).post('/invites/multiuse', {});
    assert.equal(guest.body.msg, 'Not allowed for guest users');
    const asOwner = await admin.post('/invites/multiuse', { invite_as: 100 });
    assert.equal(asOwner.body.msg, 'Must be an organization owner');
    const badRole = await admin.post('/invites/multiuse', { invite_as: 250 });
    assert.deepEqual([badRole.status, badRole.body.code], [400, 'REQUEST_VARIABLE_INVALID']);
    const secret = await createChannel(ts, mel, 'secret', { invite_only: true });
    const hidden = await admin.post('/invites/multiuse', { stream_ids: JSON.stringify([secret]) });
    assert.equal(hidden.body.msg, `Invalid channel ID ${secret}. No invites were sent.`);
    const members = await owner.get('/user_groups');
    const membersGroup = members.body.user_groups.find((g: { name: string }) => g.name === 'role:members').id;
    assert.equal((await owner.patch('/realm', { create_multiuse_invite_group: JSON.stringify({ new: membersGroup }) })).status, 200);
    const allowed = await mel.post('/invites/multiuse', { invite_expires_in_minutes: 60 });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const asAdmin = await mel.post('/invites/multiuse', { invite_as: 200 });
    assert.equal(asAdmin.body.msg, 'Must be an organization administrator');
    // Mel's own link: Mel sees and revokes it; another member's link needs an administrator.
    const mine = (await mel.get('/invites')).body.invites;
    assert.equal(mine.length, 1);
    const adminsLink = (await owner.get('/invites')).body.invites.find((i: { invited_by_user_id: number }) => i.invited_by_user_id === ts.owner.id);
    assert.equal((await mel.delete(`/invites/multiuse/${adminsLink.id}`)).body.msg, 'Must be an organization administrator');
    assert.equal((await mel.delete(`/invites/multiuse/${mine[0].id}`)).status, 200);
    assert.equal((await mel.delete(`/invites/multiuse/${mine[0].id}`)).body.msg, 'No such invitation');
    assert.equal(melAcc.id > 0, true);
  });

  it('PATCH /invites/multiuse/{id} changes what a link gives (same checks as creating), stored, announced; the link stays', async () => {
    const link = (await owner.post('/invites/multiuse', { stream_ids: JSON.stringify([kitchen]) })).body.invite_link as string;
    const inv = (await owner.get('/invites')).body.invites.find((i: { link_url: string }) => i.link_url === link);
    const adminReg = (await admin.post('/register', { event_types: JSON.stringify(['invites_changed']) })).body;
    const res = await owner.patch(`/invites/multiuse/${inv.id}`, { invite_as: 200, stream_ids: JSON.stringify([lobby]) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await drain(admin, adminReg.queue_id, adminReg.last_event_id)).map((e) => e.type), ['invites_changed']);
    await ts.store.settled();
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'invites.json'), 'utf8')).invites.find((i: { id: number }) => i.id === inv.id);
    assert.deepEqual([stored.key, stored.role, stored.stream_ids], [keyOf(link), 200, [lobby]]);
    // A member may not edit someone else's link, nor hand out a role above their own.
    assert.equal((await mel.patch(`/invites/multiuse/${inv.id}`, { invite_as: 400 })).body.msg, 'Must be an organization administrator');
    assert.equal((await admin.patch(`/invites/multiuse/${inv.id}`, { invite_as: 100 })).body.msg, 'Must be an organization owner');
    assert.equal((await owner.patch('/invites/multiuse/99999', {})).body.msg, 'No such invitation');
    assert.equal((await owner.delete(`/invites/multiuse/${inv.id}`)).status, 200);
  });

  it('expired, revoked or orphaned links stop working; email invitations are refused clearly', async () => {
    const short = (await owner.post('/invites/multiuse', { invite_expires_in_minutes: 30 })).body.invite_link as string;
    const never = (await owner.post('/invites/multiuse', { invite_expires_in_minutes: 'null' })).body.invite_link as string;
    now += 31 * 60 * 1000;
    const expired = await join_({ key: keyOf(short), email: 'late@example.com', full_name: 'Late', password: 'long enough password' });
    assert.equal(expired.status, 400);
    assert.ok(!(await owner.get('/invites')).body.invites.some((i: { link_url: string }) => i.link_url === short));
    const forever = (await owner.get('/invites')).body.invites.find((i: { link_url: string }) => i.link_url === never);
    assert.equal(forever.expiry_date, null);
    assert.equal((await owner.delete(`/invites/multiuse/${forever.id}`)).status, 200);
    const revoked = await join_({ key: keyOf(never), email: 'late@example.com', full_name: 'Late', password: 'long enough password' });
    assert.equal(revoked.status, 400);
    // An invite whose creator is deactivated is dead too (Zulip revokes them).
    const adaLink = (await admin.post('/invites/multiuse', {})).body.invite_link as string;
    const ada = ts.store.users.all().find((u) => u.full_name === 'Ada')!;
    assert.equal((await owner.delete(`/users/${ada.id}`)).status, 200);
    assert.equal((await join_({ key: keyOf(adaLink), email: 'z@example.com', full_name: 'Z', password: 'long enough password' })).status, 400);
    const email = await owner.post('/invites', { invitee_emails: 'a@example.com', stream_ids: '[]' });
    assert.equal(email.status, 400);
    assert.match(email.body.msg, /sends no email/);
  });
});

describe('invite links from the desktop window', () => {
  it('a link made on the loopback page names the LAN address colleagues can open', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-invite-lan-'));
    // Bound to every interface, as the desktop app by default; the admin page is on loopback, as the window.
    const server = await startServer({ dataDir, host: '0.0.0.0', port: 0, log: silentLogger });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const made = await new Client(origin, null).post('/hearth/setup', { realm_name: 'Wide Office', email: 'wes@example.com', password: 'wes password', full_name: 'Wes' });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const wes = new Client(origin, { id: made.body.user_id, email: 'wes@example.com', apiKey: made.body.api_key, password: 'wes password' });
      const lan = ((await wes.get('/hearth/status')).body.lan_urls as string[]).find((u) => new URL(u).hostname !== '127.0.0.1');
      assert.ok(lan, 'this machine has a LAN address');
      const link = (await wes.post('/invites/multiuse', {})).body.invite_link as string;
      assert.equal(new URL(link).origin, new URL(lan).origin);
      assert.equal((await wes.get('/invites')).body.invites[0].link_url, link);
      // Opened from another computer, the link works.
      const page = await fetch(link, { redirect: 'manual' });
      assert.equal(page.status, 200);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
