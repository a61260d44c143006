import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, skipWithoutOpenApi } from '../helpers/openapi.js';
import { after, before, describe, it } from 'node:test';
import { createChannel, watch } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The property names of a component schema in Zulip's OpenAPI description
 * (../shared/ref/zulip-openapi.yaml): the keys directly under its `properties`.
 */
function schemaProperties(yaml: string[], name: string): string[] {
  const start = yaml.indexOf(`    ${name}:`);
  assert.ok(start >= 0, `schema ${name} found`);
  const props = yaml.indexOf('      properties:', start);
  const keys: string[] = [];
  for (let i = props + 1; i < yaml.length; i++) {
    const line = yaml[i]!;
    if (line.trim() === '') continue;
    const indent = line.length - line.trimStart().length;
    if (indent <= 6) break;
    const m = /^ {8}([a-z_]+):/.exec(line);
    if (m) keys.push(m[1]!);
  }
  return keys.sort();
}

const sorted = (o: object) => Object.keys(o).sort();
/** Added after the OpenAPI snapshot (feature level 441), present in the spec at 491. */
const NEWER = ['can_create_topic_group'];
/** BasicChannel is BasicChannelBase plus stream_weekly_traffic (declared in its allOf). */
const basicChannel = (yaml: string[]) => [...schemaProperties(yaml, 'BasicChannelBase'), 'stream_weekly_traffic', ...NEWER].sort();

describe('channel objects and events have the OpenAPI shapes', { skip: skipWithoutOpenApi('the channel shape checks') }, () => {
  let ts: TestServer;
  let cast: Cast;
  let yaml: string[];
  before(async () => {
    yaml = readFileSync(OPENAPI_FILE, 'utf8').split('\n');
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  it('channel, subscription and folder objects carry exactly the documented fields', async () => {
    const channel = basicChannel(yaml);
    const subscription = [...schemaProperties(yaml, 'Subscription'), ...NEWER].sort();
    const folder = schemaProperties(yaml, 'ChannelFolder');
    await createChannel(ts, ts.ownerClient, 'shapes');
    const streams = await ts.ownerClient.get('/streams');
    assert.deepEqual(sorted(streams.body.streams[0]), channel);
    const one = await ts.ownerClient.get(`/streams/${streams.body.streams[0].stream_id}`);
    assert.deepEqual(sorted(one.body.stream), channel);
    const subs = await ts.ownerClient.get('/users/me/subscriptions', { include_subscribers: true });
    assert.deepEqual(sorted(subs.body.subscriptions[0]), subscription.filter((k) => k !== 'partial_subscribers'));
    await ts.ownerClient.post('/channel_folders/create', { name: 'F', description: 'd' });
    const folders = await ts.ownerClient.get('/channel_folders');
    assert.deepEqual(sorted(folders.body.channel_folders[0]), folder);
  });

  it('every event has exactly its documented keys', async () => {
    const channel = basicChannel(yaml);
    const subscription = [...schemaProperties(yaml, 'Subscription'), ...NEWER].sort().filter((k) => k !== 'partial_subscribers');
    const member = await watch(ts.client(cast.member), { client_capabilities: { archived_channels: true } });
    const moderator = await watch(ts.client(cast.moderator));
    const id = await createChannel(ts, ts.ownerClient, 'events', { principals: [cast.owner.id, cast.member.id] });
    await ts.ownerClient.patch(`/streams/${id}`, { description: 'x', is_private: true });
    await ts.client(cast.member).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: id, property: 'pin_to_top', value: true }],
    });
    await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'events' }], principals: [cast.admin.id] });
    await ts.ownerClient.delete('/users/me/subscriptions', { subscriptions: ['events'], principals: [cast.admin.id] });
    await ts.ownerClient.delete(`/streams/${id}`);
    const pub = await createChannel(ts, ts.ownerClient, 'defaulted');
    await ts.ownerClient.post('/default_streams', { stream_id: pub });
    const f = await ts.ownerClient.post('/channel_folders/create', { name: 'G', description: '' });
    await ts.ownerClient.patch(`/channel_folders/${f.body.channel_folder_id}`, { name: 'H' });
    await ts.ownerClient.patch('/channel_folders', { order: ts.store.channelFolders.data.folders.map((x) => x.id) });
    await ts.client(cast.member).delete('/users/me/subscriptions', { subscriptions: ['events'] });

    const events = [...(await member()), ...(await moderator())];
    const seen = new Set<string>();
    const base = ['id', 'type', 'op'];
    for (const e of events) {
      const kind = `${e.type}/${e.op ?? ''}`;
      seen.add(kind);
      const keys = sorted(e);
      switch (kind) {
        case 'stream/create':
          assert.deepEqual(keys, [...base, 'streams'].sort());
          for (const s of e.streams as object[]) assert.deepEqual(sorted(s), channel);
          break;
        case 'stream/delete':
          assert.deepEqual(keys, [...base, 'stream_ids', 'streams'].sort());
          for (const s of e.streams as object[]) assert.deepEqual(sorted(s), ['stream_id']);
          break;
        case 'stream/update': {
          const extra = e.property === 'description' ? ['rendered_description'] : e.property === 'invite_only' ? ['history_public_to_subscribers', 'is_web_public'] : [];
          assert.deepEqual(keys, [...base, 'name', 'property', 'stream_id', 'value', ...extra].sort());
          break;
        }
        case 'subscription/add':
          assert.deepEqual(keys, [...base, 'subscriptions'].sort());
          for (const s of e.subscriptions as object[]) assert.deepEqual(sorted(s), subscription);
          break;
        case 'subscription/remove':
          assert.deepEqual(keys, [...base, 'subscriptions'].sort());
          for (const s of e.subscriptions as object[]) assert.deepEqual(sorted(s), ['name', 'stream_id']);
          break;
        case 'subscription/update':
          assert.deepEqual(keys, [...base, 'property', 'stream_id', 'value'].sort());
          break;
        case 'subscription/peer_add':
        case 'subscription/peer_remove':
          assert.deepEqual(keys, [...base, 'stream_ids', 'user_ids'].sort());
          break;
        case 'default_streams/':
          assert.deepEqual(keys, ['default_streams', 'id', 'type']);
          break;
        case 'channel_folder/add':
          assert.deepEqual(keys, [...base, 'channel_folder'].sort());
          assert.deepEqual(sorted(e.channel_folder as object), schemaProperties(yaml, 'ChannelFolder'));
          break;
        case 'channel_folder/update':
          assert.deepEqual(keys, [...base, 'channel_folder_id', 'data'].sort());
          break;
        case 'channel_folder/reorder':
          assert.deepEqual(keys, [...base, 'order'].sort());
          break;
        default:
          assert.fail(`unexpected event ${kind}`);
      }
    }
    assert.deepEqual([...seen].sort(), [
      'channel_folder/add', 'channel_folder/reorder', 'channel_folder/update', 'default_streams/', 'stream/create',
      'stream/delete', 'stream/update', 'subscription/add', 'subscription/peer_add', 'subscription/peer_remove',
      'subscription/remove', 'subscription/update',
    ]);
  });
});
