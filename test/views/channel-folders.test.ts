import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** Channel folders: create, list, update, archive, reorder, and who sees them. */
describe('channel folders', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const folders = () => ts.store.channelFolders.data.folders;
  const create = (name: string, description = '', who: CastRole = 'admin') =>
    as(who).post('/channel_folders/create', { name, description });

  it('creates folders (administrators only), rendered, ordered last, announced to everyone', async () => {
    assertError(await create('Nope', '', 'member'), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    let id = 0;
    const events = await verifyAction(as('guest'), async () => {
      const res = await create('  Frontend ', 'UI *work* <b>');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.channel_folder_id;
    });
    const f = folders().find((x) => x.id === id)!;
    assert.deepEqual(
      { name: f.name, description: f.description, rendered: f.rendered_description, order: f.order, creator: f.creator_id },
      { name: 'Frontend', description: 'UI *work* <b>', rendered: '<p>UI <em>work</em> &lt;b&gt;</p>', order: 0, creator: cast.admin.id },
    );
    assert.equal(typeof f.date_created, 'number');
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'channel_folder');
    assert.equal(events[0]!.op, 'add');
    const second = await create('Backend');
    assert.equal(folders().find((x) => x.id === second.body.channel_folder_id)!.order, 1);
  });

  it('refuses bad names and descriptions', async () => {
    const count = folders().length;
    assertError(await create('frontend'), "Channel folder 'frontend' already exists");
    assertError(await create('   '), "Channel folder name can't be empty.");
    assertError(await create('a\u0000b'), 'Invalid character in channel folder name, at position 2.');
    assertError(await create('n'.repeat(61)), 'name is too long (limit: 60 characters)');
    assertError(await create('Long', 'd'.repeat(1025)), 'description is too long (limit: 1024 characters)');
    assertError(await as('admin').post('/channel_folders/create', { name: 'NoDesc' }), "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING');
    assert.equal(folders().length, count);
  });

  it('updates name and description, one event per change, nothing for no change', async () => {
    const id = folders().find((f) => f.name === 'Backend')!.id;
    const events = await verifyAction(as('member'), async () => {
      const res = await as('admin').patch(`/channel_folders/${id}`, { name: 'Server', description: 'APIs' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(
      events.map((e) => e.data),
      [{ name: 'Server' }, { description: 'APIs', rendered_description: '<p>APIs</p>' }],
    );
    const none = await verifyAction(as('member'), async () => {
      assert.equal((await as('admin').patch(`/channel_folders/${id}`, { name: 'Server', description: 'APIs' })).status, 200);
    });
    assert.deepEqual(none, []);
    assertError(await as('admin').patch(`/channel_folders/${id}`, { name: 'FRONTEND' }), "Channel folder 'FRONTEND' already exists");
    assertError(await as('admin').patch('/channel_folders/999', { name: 'x' }), 'Invalid channel folder ID');
    assertError(await as('member').patch(`/channel_folders/${id}`, { name: 'x' }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
  });

  it('archives only empty folders; GET lists archived ones on request', async () => {
    const frontend = folders().find((f) => f.name === 'Frontend')!;
    const channel = await createChannel(ts, as('owner'), 'ui', { folder_id: frontend.id });
    assertError(
      await as('admin').patch(`/channel_folders/${frontend.id}`, { is_archived: true }),
      'You need to remove all the channels from this folder to archive it.',
    );
    await as('owner').delete(`/streams/${channel}`);
    await verifyAction(as('member'), async () => {
      assert.equal((await as('admin').patch(`/channel_folders/${frontend.id}`, { is_archived: true })).status, 200);
    });
    assert.equal(frontend.is_archived, true);
    const active = await as('member').get('/channel_folders');
    assert.deepEqual(active.body.channel_folders.map((f: { name: string }) => f.name), ['Server']);
    const all = await as('member').get('/channel_folders', { include_archived: true });
    assert.deepEqual(all.body.channel_folders.map((f: { name: string }) => f.name), ['Frontend', 'Server']);
    assert.deepEqual(Object.keys(all.body.channel_folders[0]).sort(), [
      'creator_id', 'date_created', 'description', 'id', 'is_archived', 'name', 'order', 'rendered_description',
    ]);
    await as('admin').patch(`/channel_folders/${frontend.id}`, { is_archived: false });
    assert.equal(frontend.is_archived, false);
  });

  it('reorders with the full list of folder IDs', async () => {
    await create('Design');
    const ids = folders().map((f) => f.id);
    for (const bad of [ids.slice(1), [...ids, ids[0]!], [...ids.slice(1), 999], [...ids, 999]]) {
      assertError(await as('admin').patch('/channel_folders', { order: bad }), 'Invalid order mapping.');
    }
    assertError(await as('member').patch('/channel_folders', { order: ids }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    const reversed = [...ids].reverse();
    const events = await verifyAction(as('member'), async () => {
      assert.equal((await as('admin').patch('/channel_folders', { order: reversed })).status, 200);
    });
    assert.deepEqual(events[0]!.order, reversed);
    const listed = await as('member').get('/channel_folders');
    assert.deepEqual(listed.body.channel_folders.map((f: { id: number }) => f.id), reversed);
    assert.deepEqual(listed.body.channel_folders.map((f: { order: number }) => f.order), [0, 1, 2]);
  });

  it('shows spectators only the folders holding a web-public channel', async () => {
    const realm = ts.store.realm.data.realm!.settings;
    realm.enable_spectator_access = true;
    const design = folders().find((f) => f.name === 'Design')!;
    await createChannel(ts, as('owner'), 'showcase', { is_web_public: true, folder_id: design.id });
    const spectator = await ts.anonymous.post('/register', { fetch_event_types: ['channel_folders'] });
    assert.equal(spectator.status, 200, JSON.stringify(spectator.body));
    assert.deepEqual(spectator.body.channel_folders.map((f: { name: string }) => f.name), ['Design']);
    const member = await as('member').post('/register', { fetch_event_types: ['channel_folders'] });
    assert.equal(member.body.channel_folders.length, 3);
  });

  it('links channels in folder descriptions, as the author can read them', async () => {
    const lobby = await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'Folder lobby' }] });
    assert.equal(lobby.status, 200);
    const lobbyId = ts.store.channels.data.channels.find((c) => c.name === 'Folder lobby')!.id;
    const res = await create('Linked', 'Start in #**Folder lobby**');
    const f = folders().find((x) => x.id === res.body.channel_folder_id)!;
    assert.match(f.rendered_description, new RegExp(`<a class="stream" data-stream-id="${lobbyId}"`));
    const upd = await as('admin').patch(`/channel_folders/${f.id}`, { description: '*moved* to #**Folder lobby**' });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.match(folders().find((x) => x.id === f.id)!.rendered_description, /<em>moved<\/em> to <a class="stream"/);
  });
});
