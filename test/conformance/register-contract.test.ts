import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

type Kind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'idKeyed';

/** What the Zulip mobile app and the terminal client read from POST /register (issue 7), with types. */
const CONTRACT: Record<string, Kind> = {
  last_event_id: 'number',
  zulip_feature_level: 'number',
  zulip_version: 'string',
  zulip_merge_base: 'string',
  alert_words: 'array',
  custom_profile_fields: 'array',
  max_stream_name_length: 'number',
  max_topic_length: 'number',
  server_presence_ping_interval_seconds: 'number',
  server_presence_offline_threshold_seconds: 'number',
  muted_users: 'array',
  presences: 'idKeyed',
  realm_emoji: 'object',
  realm_user_groups: 'array',
  recent_private_conversations: 'array',
  subscriptions: 'array',
  unread_msgs: 'object',
  starred_messages: 'array',
  streams: 'array',
  user_status: 'idKeyed',
  user_settings: 'object',
  user_topics: 'array',
  realm_wildcard_mention_policy: 'number',
  realm_name: 'string',
  realm_waiting_period_threshold: 'number',
  realm_allow_message_editing: 'boolean',
  realm_enable_read_receipts: 'boolean',
  realm_icon_url: 'string',
  realm_presence_disabled: 'boolean',
  realm_default_external_accounts: 'object',
  max_file_upload_size_mib: 'number',
  server_emoji_data_url: 'string',
  event_queue_longpoll_timeout_seconds: 'number',
  realm_users: 'array',
  realm_non_active_users: 'array',
  cross_realm_bots: 'array',
  saved_snippets: 'array',
  navigation_views: 'array',
  channel_folders: 'array',
  devices: 'object',
  realm_topics_policy: 'string',
  // Deprecated (feature level 392), still sent by Zulip; the Flutter app requires it as a boolean.
  realm_mandatory_topics: 'boolean',
  realm_empty_topic_display_name: 'string',
  server_typing_started_expiry_period_milliseconds: 'number',
  server_typing_stopped_wait_period_milliseconds: 'number',
  server_typing_started_wait_period_milliseconds: 'number',
  muted_topics: 'array',
  realm_message_retention_days: 'number',
  realm_allow_edit_history: 'boolean',
  max_message_id: 'number',
  realm_linkifiers: 'array',
};

/** What the mobile app reads from user_settings (and legacy clients at the top level), with types. */
const USER_SETTINGS: Record<string, Kind> = {
  twenty_four_hour_time: 'boolean',
  starred_message_counts: 'boolean',
  display_emoji_reaction_users: 'boolean',
  emojiset: 'string',
  presence_enabled: 'boolean',
};

function check(body: Record<string, unknown>, key: string, kind: Kind): void {
  const v = body[key];
  assert.ok(key in body && v !== null && v !== undefined, `${key} is missing or null`);
  if (kind === 'array') assert.ok(Array.isArray(v), `${key} is not a list`);
  else if (kind === 'object' || kind === 'idKeyed') {
    assert.ok(typeof v === 'object' && !Array.isArray(v), `${key} is not an object`);
    if (kind === 'idKeyed') for (const k of Object.keys(v as object)) assert.match(k, /^\d+$/, `${key} key ${k} is not a user ID`);
  } else assert.equal(typeof v, kind, `${key} is not a ${kind}`);
}

describe('the register contract real clients depend on', () => {
  let ts: TestServer;
  let mel: Client;
  before(async () => {
    ts = await startTestServer();
    const m = await ts.addUser('Mel');
    mel = ts.client(m);
    // Data in every personal section, so the types are checked on real entries.
    await mel.post('/users/me/presence', { status: 'active' });
    await mel.post('/users/me/status', { status_text: 'here' });
    await mel.post('/saved_snippets', { title: 'hi', content: 'hello there' });
  });
  after(() => ts.stop());

  it('the mobile app\'s register (slim presence, its capabilities): every key, typed', async () => {
    const res = await mel.post('/register', {
      slim_presence: true,
      client_capabilities: JSON.stringify({ notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, user_settings_object: true }),
    });
    assert.equal(res.status, 200);
    for (const [key, kind] of Object.entries(CONTRACT)) check(res.body, key, kind);
    const settings = res.body.user_settings as Record<string, unknown>;
    for (const [k, kind] of Object.entries(USER_SETTINGS)) check(settings, k, kind);
    assert.ok(Object.keys(res.body.presences).length > 0 && Object.keys(res.body.user_status).length > 0);
  });

  it('the terminal client\'s register (no user_settings_object): every key, typed; settings only in user_settings (feature level 439)', async () => {
    const res = await mel.post('/register', {});
    assert.equal(res.status, 200);
    // Without slim_presence, presences are in Zulip's legacy format, keyed by email (the terminal client reads them so).
    for (const [key, kind] of Object.entries(CONTRACT)) check(res.body, key, key === 'presences' ? 'object' : kind);
    assert.ok(Object.keys(res.body.presences).includes(mel.account!.email), 'legacy presences are keyed by email');
    for (const [k, kind] of Object.entries(USER_SETTINGS)) {
      assert.ok(!(k in res.body), `${k} is not repeated at the top level`);
      check(res.body.user_settings as Record<string, unknown>, k, kind);
    }
  });

  it('server_emoji_data_url serves code_to_names offline, cacheable', async () => {
    const url = (await mel.post('/register', { fetch_event_types: JSON.stringify(['realm']) })).body.server_emoji_data_url as string;
    const res = await fetch(url);
    assert.equal(res.status, 200);
    const data = (await res.json()) as { code_to_names: Record<string, string[]> };
    assert.ok(data.code_to_names['1f389']!.includes('tada'));
    assert.ok(data.code_to_names['1f44d']!.includes('thumbs_up') && data.code_to_names['1f44d']!.includes('+1'));
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await fetch(url, { headers: { 'If-None-Match': etag } })).status, 304);
  });
});

describe('saved snippets and navigation views', () => {
  let ts: TestServer;
  let mel: Client;
  before(async () => {
    ts = await startTestServer();
    mel = ts.client(await ts.addUser('Mel'));
  });
  after(() => ts.stop());

  it('snippets: create, edit, delete (verifyAction); errors', async () => {
    let id = 0;
    await verifyAction(mel, async () => {
      const res = await mel.post('/saved_snippets', { title: 'Greeting', content: 'Hello, world' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.saved_snippet_id;
    }, { fetch_event_types: JSON.stringify(['saved_snippets']) });
    await verifyAction(mel, () => mel.patch(`/saved_snippets/${id}`, { content: 'Hello again' }), { fetch_event_types: JSON.stringify(['saved_snippets']) });
    assert.equal((await mel.get('/saved_snippets')).body.saved_snippets[0].content, 'Hello again');
    assert.equal((await mel.post('/saved_snippets', { title: ' ', content: 'x' })).body.msg, 'Title cannot be empty.');
    assert.equal((await mel.patch('/saved_snippets/999', { title: 'x' })).body.msg, 'Saved snippet does not exist.');
    await verifyAction(mel, () => mel.delete(`/saved_snippets/${id}`), { fetch_event_types: JSON.stringify(['saved_snippets']) });
    assert.deepEqual((await mel.get('/saved_snippets')).body.saved_snippets, []);
  });

  it('navigation views: pin a built-in view, add a custom one, rename, remove (verifyAction)', async () => {
    const NV = { fetch_event_types: JSON.stringify(['navigation_view']) };
    await verifyAction(mel, () => mel.post('/navigation_views', { fragment: 'inbox', is_pinned: false }), NV);
    await verifyAction(mel, () => mel.post('/navigation_views', { fragment: 'narrow/channel/1-general', is_pinned: true, name: 'General' }), NV);
    assert.equal((await mel.post('/navigation_views', { fragment: 'inbox', is_pinned: true })).body.msg, 'Navigation view already exists.');
    assert.equal((await mel.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true })).body.msg, 'Custom views must have a name.');
    await verifyAction(mel, () => mel.patch(`/navigation_views/${encodeURIComponent('narrow/channel/1-general')}`, { name: 'All hands' }), NV);
    await verifyAction(mel, () => mel.delete('/navigation_views/inbox'), NV);
    // The API documentation's own example: the fragment's slashes written as they are.
    await verifyAction(mel, () => mel.post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }), NV);
    const patched = await mel.patch('/navigation_views/narrow/is/alerted', { is_pinned: false });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal((await mel.get('/navigation_views')).body.navigation_views.find((v: { fragment: string }) => v.fragment === 'narrow/is/alerted').is_pinned, false);
    assert.equal((await mel.delete('/navigation_views/narrow/is/alerted')).status, 200);
    // Decoded once: %25 is a literal percent sign, not an escape to decode again.
    assert.equal((await mel.delete('/navigation_views/narrow%2Fsearch%2F100%2525')).body.msg, 'Navigation view does not exist.');
    assert.deepEqual((await mel.get('/navigation_views')).body.navigation_views, [
      { fragment: 'narrow/channel/1-general', is_pinned: true, name: 'All hands' },
    ]);
  });
});
