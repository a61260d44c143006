import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { OpenApi, skipWithoutOpenApi } from '../helpers/openapi.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain } from '../helpers/verify-action.js';

/**
 * Real responses and events against Zulip's OpenAPI description (../shared/ref/zulip-openapi.yaml):
 * every documented required field present and typed. Extra fields are allowed.
 */
describe('responses and events match Zulip\'s OpenAPI description', { skip: skipWithoutOpenApi('the OpenAPI response checks') }, () => {
  let oa: OpenApi;
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  before(async () => {
    oa = new OpenApi();
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    await createChannel(ts, sam, 'general', { principals: [] });
    for (const c of [mel, sam]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    await sendStream(sam, 'general', 'hello', 'first @**Mel**');
    await sendDirect(sam, [melAcc.id], 'a direct message');
  });
  after(() => ts.stop());

  const ok = (name: string, errors: string[]) => assert.deepEqual(errors, [], `${name}:\n${errors.join('\n')}`);

  it('the validator itself rejects what Zulip does not document (so the checks below can fail)', () => {
    assert.notDeepEqual(oa.eventErrors({ type: 'reaction', op: 'add', message_id: 'x' }), []);
    assert.notDeepEqual(oa.eventErrors({ type: 'no_such_event' }), []);
    assert.notDeepEqual(oa.errors('post', '/register', { result: 'success', msg: '', zulip_version: 5 }), []);
  });

  it('GET /server_settings, POST /register (everything, modern and legacy clients)', async () => {
    ok('server_settings', oa.errors('get', '/server_settings', (await ts.anonymous.get('/server_settings')).body));
    const modern = await mel.post('/register', {
      slim_presence: true,
      client_capabilities: JSON.stringify({ user_settings_object: true, bulk_message_deletion: true, empty_topic_name: true, simplified_presence_events: true }),
    });
    ok('register (modern)', oa.errors('post', '/register', modern.body));
    ok('register (legacy)', oa.errors('post', '/register', (await mel.post('/register', {})).body));
  });

  it('GET /messages, /users, /users/me, /users/{id}, /streams and more', async () => {
    const narrow = JSON.stringify([{ operator: 'channel', operand: 'general' }]);
    ok('messages', oa.errors('get', '/messages', (await mel.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0 })).body));
    ok('messages (search)', oa.errors('get', '/messages', (await mel.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow })).body));
    ok('users', oa.errors('get', '/users', (await mel.get('/users')).body));
    ok('users/me', oa.errors('get', '/users/me', (await mel.get('/users/me')).body));
    ok('users/{id}', oa.errors('get', '/users/{user_id}', (await mel.get(`/users/${samAcc.id}`)).body));
    ok('streams', oa.errors('get', '/streams', (await mel.get('/streams')).body));
    ok('subscriptions', oa.errors('get', '/users/me/subscriptions', (await mel.get('/users/me/subscriptions')).body));
    ok('user_groups', oa.errors('get', '/user_groups', (await mel.get('/user_groups')).body));
  });

  it('every event a day of use produces, for modern and legacy clients', async () => {
    const modern = await mel.post('/register', {
      client_capabilities: JSON.stringify({ user_settings_object: true, bulk_message_deletion: true, empty_topic_name: true, simplified_presence_events: true, stream_typing_notifications: true }),
    });
    const legacy = await mel.post('/register', {});
    const general = ts.store.channels.data.channels.find((c) => c.name === 'general')!.id;
    const m1 = await sendStream(sam, 'general', 'plans', 'lunch? @**Mel**');
    const dm = await sendDirect(sam, [melAcc.id], 'psst');
    await mel.post('/messages/flags', { messages: JSON.stringify([m1, dm]), op: 'add', flag: 'read' });
    await mel.post('/messages/flags', { messages: JSON.stringify([m1]), op: 'remove', flag: 'read' });
    await mel.post('/messages/flags', { messages: JSON.stringify([m1]), op: 'add', flag: 'starred' });
    await sam.post(`/messages/${m1}/reactions`, { emoji_name: 'tada' });
    await sam.delete(`/messages/${m1}/reactions`, { emoji_name: 'tada' });
    await sam.post('/typing', { op: 'start', to: JSON.stringify([melAcc.id]) });
    await sam.post('/typing', { op: 'start', type: 'channel', stream_id: general, topic: 'plans' });
    await sam.patch(`/messages/${m1}`, { content: 'dinner? @**Mel**' });
    await sam.patch(`/messages/${m1}`, { topic: 'evening', propagate_mode: 'change_all' });
    await sam.delete(`/messages/${dm}`);
    await sam.post('/users/me/presence', { status: 'active' });
    await sam.post('/users/me/status', { status_text: 'cooking', emoji_name: 'cook' });
    await mel.patch('/settings', { twenty_four_hour_time: true, enter_sends: false });
    await mel.post('/users/me/alert_words', { alert_words: JSON.stringify(['pizza']) });
    await mel.post(`/users/me/muted_users/${samAcc.id}`);
    await mel.delete(`/users/me/muted_users/${samAcc.id}`);
    await mel.post('/user_topics', { stream_id: general, topic: 'evening', visibility_policy: 3 });
    await mel.post('/saved_snippets', { title: 'hi', content: 'hello' });
    await mel.post('/navigation_views', { fragment: 'inbox', is_pinned: false });
    await mel.post('/mark_all_as_read');
    await mel.post('/drafts', { drafts: JSON.stringify([{ type: 'stream', to: [general], topic: 't', content: 'draft', timestamp: 1 }]) });
    // A custom emoji added and deactivated (neither queue asked for individual_emoji_changes: the legacy update).
    const form = new FormData();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    form.append('f', new Blob([new Uint8Array(Buffer.from(png, 'base64'))], { type: 'image/png' }), 'e.png');
    assert.equal((await fetch(`${sam.baseUrl}/api/v1/realm/emoji/hearth`, { method: 'POST', headers: sam.authHeader, body: form })).status, 200);
    assert.equal((await sam.delete('/realm/emoji/hearth')).status, 200);
    for (const [name, reg] of [['modern', modern], ['legacy', legacy]] as const) {
      const events = await drain(mel, reg.body.queue_id, reg.body.last_event_id);
      assert.ok(events.length >= 20, `${name}: ${events.length} events`);
      const types = new Set(events.map((e) => e.type));
      for (const t of ['message', 'update_message_flags', 'reaction', 'typing', 'update_message', 'delete_message', 'presence', 'user_status', 'alert_words', 'muted_users', 'user_topic', 'saved_snippets', 'navigation_view', 'realm_emoji']) {
        assert.ok(types.has(t), `${name}: no ${t} event (got ${[...types].join(', ')})`);
      }
      for (const e of events) ok(`${name} ${String(e.type)}/${String(e.op)}`, oa.eventErrors(e));
    }
  });
});
