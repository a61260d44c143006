/**
 * Behaviour the walk through Zulip's API changelog (feature levels 1 to 491) found missing
 * or different, each checked as a client sees it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendDirect } from '../helpers/messages.js';
import { startTestServer, type Client, type Person, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

describe("Zulip's API changelog, as clients of feature level 491 expect it", () => {
  let ts: TestServer;
  let mel: Person;
  let sam: Person;
  before(async () => {
    ts = await startTestServer();
    [mel, sam] = await ts.people('Mel', 'Sam');
  });
  after(() => ts.stop());

  const message = async (client: Client, id: number) => (await client.get(`/messages/${id}`)).body.message;

  it('FL 482: a 1:1 conversation has one recipient_id whoever sent the message; other conversations differ', async () => {
    const fromMel = await sendDirect(mel.client, [sam.account.id], 'hi Sam');
    const fromSam = await sendDirect(sam.client, [mel.account.id], 'hi Mel');
    const toSelf = await sendDirect(mel.client, [mel.account.id], 'note to self');
    const group = await sendDirect(mel.client, [sam.account.id, ts.owner.id], 'hi both');
    const a = (await message(mel.client, fromMel)).recipient_id;
    assert.equal((await message(mel.client, fromSam)).recipient_id, a);
    assert.equal((await message(sam.client, fromMel)).recipient_id, a, 'the same for both participants');
    const others = [(await message(mel.client, toSelf)).recipient_id, (await message(mel.client, group)).recipient_id];
    assert.equal(new Set([a, ...others]).size, 3);
  });

  it('FL 380: is_moderator is true for administrators and owners', async () => {
    const reg = (await ts.ownerClient.post('/register', { fetch_event_types: ['realm_user'] })).body;
    assert.equal(reg.is_moderator, true);
    assert.equal((await mel.client.post('/register', { fetch_event_types: ['realm_user'] })).body.is_moderator, false);
  });

  it('FL 227, 454, 78: settings take desktop_icon_count_display 4 and web_home_view "recent"; the answer has no full_name', async () => {
    const res = await mel.client.patch('/settings', { desktop_icon_count_display: 4, web_home_view: 'recent', full_name: 'Mel Renamed' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(!('full_name' in res.body));
    const settings = (await mel.client.get('/settings')).body.user_settings;
    assert.deepEqual([settings.desktop_icon_count_display, settings.web_home_view], [4, 'recent']);
    // The old name is still understood and stored as the new one.
    assert.equal((await mel.client.patch('/settings', { web_home_view: 'recent_topics' })).status, 200);
    assert.equal((await mel.client.get('/settings')).body.user_settings.web_home_view, 'recent');
    assert.equal((await mel.client.patch('/settings', { desktop_icon_count_display: 5 })).status, 400);
  });

  it('FL 440, 458: GET /users/{id}/channels lists what the requester may see; bots are targets', async () => {
    const open = await createChannel(ts, mel.client, 'open-room');
    const hidden = await createChannel(ts, mel.client, 'hidden-room', { invite_only: true });
    const mine = await sam.client.get(`/users/${mel.account.id}/channels`);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual(mine.body.subscribed_channel_ids, [open], 'a private channel Sam is not in stays hidden');
    assert.deepEqual((await ts.ownerClient.get(`/users/${mel.account.id}/channels`)).body.subscribed_channel_ids, [open, hidden]);
    const bot = await mel.client.post('/bots', { full_name: 'Helper Bot', short_name: 'helper' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    assert.deepEqual((await mel.client.get(`/users/${bot.body.user_id}/channels`)).body.subscribed_channel_ids, []);
    assert.equal((await mel.client.get(`/users/${bot.body.user_id}/subscriptions/${open}`)).body.is_subscribed, false);
    const everyone = (await mel.client.get('/user_groups')).body.user_groups.find((g: { name: string }) => g.name === 'role:everyone');
    assert.equal((await mel.client.get(`/user_groups/${everyone.id}/members/${bot.body.user_id}`)).status, 200);
  });

  it('FL 463: GET /bots/{id}/api_key for whoever administers the bot', async () => {
    const bot = await mel.client.post('/bots', { full_name: 'Key Bot', short_name: 'keybot' });
    const key = await mel.client.get(`/bots/${bot.body.user_id}/api_key`);
    assert.equal(key.status, 200, JSON.stringify(key.body));
    assert.equal(key.body.api_key, bot.body.api_key);
    assert.equal((await ts.ownerClient.get(`/bots/${bot.body.user_id}/api_key`)).body.api_key, bot.body.api_key);
    const refused = await sam.client.get(`/bots/${bot.body.user_id}/api_key`);
    assert.equal(refused.status, 400);
    assert.ok(!('api_key' in refused.body));
  });

  it('FL 470: POST /remove_client_device forgets the caller\'s device and tells their clients', async () => {
    const id = (await mel.client.post('/register_client_device')).body.device_id as number;
    const reg = (await mel.client.post('/register', { event_types: ['device'] })).body;
    assert.equal((await sam.client.post('/remove_client_device', { device_id: id })).body.msg, 'Invalid device ID');
    assert.equal((await mel.client.post('/remove_client_device', { device_id: id })).status, 200);
    assert.deepEqual((await drain(mel.client, reg.queue_id, reg.last_event_id)).map(({ id: _i, ...e }) => e), [{ type: 'device', op: 'remove', device_id: id }]);
    assert.ok(!ts.store.devices.data.devices.some((d) => d.id === id));
    assert.equal((await mel.client.post('/remove_client_device', { device_id: id })).body.msg, 'Invalid device ID');
  });

  it('FL 372: typing in "(no topic)" is typing in the empty topic', async () => {
    const channel = await createChannel(ts, mel.client, 'typing-room');
    await sam.client.post('/users/me/subscriptions', { subscriptions: [{ name: 'typing-room' }] });
    const reg = (await sam.client.post('/register', { event_types: ['typing'], client_capabilities: { stream_typing_notifications: true } })).body;
    assert.equal((await mel.client.post('/typing', { type: 'channel', op: 'start', stream_id: channel, topic: '(no topic)' })).status, 200);
    const events = await drain(sam.client, reg.queue_id, reg.last_event_id);
    assert.equal(events[0]!.topic, '');
  });

  it('FL 392, 128, 195, 216, 348: organization settings clients show, changed through PATCH /realm and announced', async () => {
    const events = await verifyAction(mel.client, async () => {
      const res = await ts.ownerClient.patch('/realm', {
        topics_policy: 'disable_empty_topic',
        default_language: 'de',
        default_code_block_language: 'python',
        org_type: 10,
        enable_guest_user_indicator: false,
        enable_guest_user_dm_warning: false,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(!('ignored_parameters_unsupported' in res.body), JSON.stringify(res.body));
    }, { fetch_event_types: ['realm'] });
    assert.deepEqual(events.map((e) => e.property).sort(), [
      'default_code_block_language', 'default_language', 'enable_guest_user_dm_warning', 'enable_guest_user_indicator', 'org_type', 'topics_policy',
    ]);
    const reg = (await mel.client.post('/register', { fetch_event_types: ['realm'] })).body;
    assert.deepEqual(
      [reg.realm_topics_policy, reg.realm_mandatory_topics, reg.realm_default_language, reg.realm_default_code_block_language, reg.realm_org_type, reg.realm_enable_guest_user_indicator],
      ['disable_empty_topic', true, 'de', 'python', 10, false],
    );
    for (const bad of [{ topics_policy: 'sometimes' }, { org_type: 7 }, { default_language: 'not a language' }]) {
      assert.equal((await ts.ownerClient.patch('/realm', bad)).status, 400, JSON.stringify(bad));
    }
    assert.equal((await mel.client.patch('/realm', { org_type: 20 })).status, 400, 'members may not');
    await ts.ownerClient.patch('/realm', { topics_policy: 'allow_empty_topic' });
  });

  it('FL 150, 306: message-editing settings and the upload limit are announced as update_dict', async () => {
    const events = await verifyAction(mel.client, async () => {
      assert.equal((await ts.ownerClient.patch('/realm', { allow_message_editing: false, message_content_edit_limit_seconds: 300, max_file_upload_size_mib: 10 })).status, 200);
    }, { fetch_event_types: ['realm'] });
    assert.deepEqual(
      events.map(({ id: _i, ...e }) => e).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      [
        { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
        { type: 'realm', op: 'update_dict', property: 'default', data: { max_file_upload_size_mib: 10 } },
        { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 300 } },
      ],
    );
    await ts.ownerClient.patch('/realm', { allow_message_editing: true });
  });

  it('FL 233, 431, 476: no onboarding steps to mark; the inbox channel-folders setting exists', async () => {
    const res = await mel.client.post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Unknown onboarding_step: intro_inbox_view_modal');
    assert.equal((await mel.client.patch('/settings', { web_inbox_show_channel_folders: false })).status, 200);
    assert.equal((await mel.client.get('/settings')).body.user_settings.web_inbox_show_channel_folders, false);
  });

  it('FL 488: server_settings lists discord among the authentication methods (off)', async () => {
    assert.equal((await ts.anonymous.get('/server_settings')).body.authentication_methods.discord, false);
  });
});
