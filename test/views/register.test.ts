import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { drain } from '../helpers/verify-action.js';
import { createChannel } from '../helpers/channels.js';

/** POST /register: the response fields, section selection, queue options and spectators. */
describe('POST /register', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  const register = (params: Parameters<TestServer['ownerClient']['post']>[1] = {}) =>
    ts.ownerClient.post('/register', params);

  it('answers with a live queue, last_event_id -1 and the version fields', async () => {
    const res = await register({ fetch_event_types: ['drafts'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result, 'success');
    assert.equal(res.body.msg, '');
    assert.equal(typeof res.body.queue_id, 'string');
    assert.equal(res.body.last_event_id, -1);
    assert.equal(res.body.idle_queue_timeout_secs, 600);
    assert.equal(res.body.event_queue_longpoll_timeout_seconds, 90);
    assert.equal(res.body.service_feature_level, 491);
    assert.equal(res.body.zulip_feature_level, 491);
    assert.equal(typeof res.body.service_version, 'string');
    assert.match(res.body.service_version, /^\d+\.\d+/, 'clients parse the leading major version');
    assert.equal(res.body.zulip_version, res.body.service_version);
    assert.equal(res.body.service_merge_base, res.body.service_version);
    assert.equal(res.body.zulip_merge_base, res.body.service_merge_base);
    assert.equal(res.body.ignored_parameters_unsupported, undefined);

    const queue = ts.app.events.get(res.body.queue_id);
    assert.ok(queue, 'the queue exists in memory');
    assert.equal(queue.userId, ts.owner.id);
    assert.equal(queue.opts.idleTimeoutSecs, 600);
    assert.deepEqual(await drain(ts.ownerClient, res.body.queue_id, -1), []);
  });

  it('gives each register its own queue', async () => {
    const a = await register({ fetch_event_types: ['drafts'] });
    const b = await register({ fetch_event_types: ['drafts'] });
    assert.notEqual(a.body.queue_id, b.body.queue_id);
    assert.ok(ts.app.events.get(a.body.queue_id) && ts.app.events.get(b.body.queue_id));
  });

  it('takes idle_queue_timeout as seconds, "mobile", or clamps it to 7 days', async () => {
    const cases: [unknown, number][] = [
      ['mobile', 43200],
      [3600, 3600],
      [1, 1],
      [604800, 604800],
      [8 * 24 * 3600, 604800],
      [10 ** 12, 604800],
    ];
    for (const [value, expected] of cases) {
      const res = await register({ fetch_event_types: [], idle_queue_timeout: value as string | number });
      assert.equal(res.status, 200, `${value}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.idle_queue_timeout_secs, expected, String(value));
      assert.equal(ts.app.events.get(res.body.queue_id)?.opts.idleTimeoutSecs, expected);
    }
  });

  it('refuses a zero, negative, fractional or garbage idle_queue_timeout, allocating nothing', async () => {
    const before = ts.app.events.size;
    for (const value of [0, -5, 1.5, 'soon', '"600"', 'null', 'true']) {
      const res = await register({ idle_queue_timeout: value });
      assert.equal(res.status, 400, `${value}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, 'error');
      assert.match(res.body.msg, /idle_queue_timeout/);
    }
    assert.equal(ts.app.events.size, before);
  });

  it('selects sections with fetch_event_types', async () => {
    const drafts = await register({ fetch_event_types: ['drafts'] });
    assert.ok(Array.isArray(drafts.body.drafts));
    assert.equal('realm_name' in drafts.body, false);
    assert.equal('realm_users' in drafts.body, false);
    assert.equal('user_id' in drafts.body, false);

    const realm = await register({ fetch_event_types: ['realm'] });
    assert.equal(realm.body.realm_name, 'Test Org');
    assert.equal(realm.body.max_stream_name_length, 60);
    assert.equal(realm.body.max_stream_description_length, 1024);
    assert.equal(realm.body.max_topic_length, 60);
    assert.equal(realm.body.max_message_length, 10000);
    assert.equal(realm.body.realm_url, ts.url);
    assert.equal('drafts' in realm.body, false);
    assert.equal('realm_users' in realm.body, false);

    const people = await register({ fetch_event_types: ['realm_user'] });
    assert.equal(people.body.user_id, ts.owner.id);
    assert.equal(people.body.email, ts.owner.email);
    assert.equal(people.body.full_name, 'Olive Owner');
    assert.equal(people.body.is_owner, true);
    assert.ok(Array.isArray(people.body.realm_users));
    const me = people.body.realm_users.find((u: { user_id: number }) => u.user_id === ts.owner.id);
    assert.equal(me?.full_name, 'Olive Owner');
    assert.equal('realm_name' in people.body, false);
    assert.equal('drafts' in people.body, false);

    const none = await register({ fetch_event_types: [] });
    assert.equal(none.status, 200);
    for (const k of ['drafts', 'realm_name', 'realm_users', 'user_id']) assert.equal(k in none.body, false, k);
    assert.equal(typeof none.body.queue_id, 'string', 'an empty selection still allocates a queue');
  });

  it('falls back to event_types for the sections, and fetches everything without either', async () => {
    const fallback = await register({ event_types: ['drafts'] });
    assert.ok(Array.isArray(fallback.body.drafts));
    assert.equal('realm_name' in fallback.body, false);

    const explicit = await register({ event_types: ['drafts'], fetch_event_types: ['realm'] });
    assert.equal(explicit.body.realm_name, 'Test Org');
    assert.equal('drafts' in explicit.body, false, 'fetch_event_types wins over event_types');
    assert.deepEqual([...(ts.app.events.get(explicit.body.queue_id)?.opts.eventTypes ?? [])], ['drafts']);

    const all = await register();
    for (const k of ['drafts', 'realm_name', 'realm_users', 'user_id', 'max_topic_length']) {
      assert.ok(k in all.body, k);
    }
    assert.equal(ts.app.events.get(all.body.queue_id)?.opts.eventTypes, null, 'no event_types: every type');

    const nulls = await register({ event_types: null, fetch_event_types: null });
    assert.ok('realm_name' in nulls.body && 'drafts' in nulls.body);
  });

  it('ignores unknown event types', async () => {
    const res = await register({ event_types: ['no_such_type'], fetch_event_types: ['no_such_type', 'drafts'] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body.drafts));
    assert.equal('realm_name' in res.body, false);
    const only = await register({ event_types: ['no_such_type'] });
    assert.equal(only.status, 200);
    assert.equal('drafts' in only.body, false);
  });

  it('refuses malformed event type lists', async () => {
    for (const [name, value] of [
      ['event_types', '["drafts"'],
      ['event_types', 'drafts'],
      ['fetch_event_types', [1]],
      ['fetch_event_types', { drafts: true }],
    ] as const) {
      const res = await register({ [name]: value });
      assert.equal(res.status, 400, `${name}=${JSON.stringify(value)}`);
      assert.match(res.body.msg, new RegExp(name));
    }
  });

  it('filters delivered events by event_types', async () => {
    const people = await register({ event_types: ['realm_user'] });
    const drafts = await register({ event_types: ['drafts'] });
    const created = await ts.ownerClient.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] });
    assert.equal(created.status, 200);
    assert.deepEqual(await drain(ts.ownerClient, people.body.queue_id, -1), []);
    const got = await drain(ts.ownerClient, drafts.body.queue_id, -1);
    assert.deepEqual(
      got.map((e) => [e.type, e.op]),
      [['drafts', 'add']],
    );
    await ts.addUser('Filtered');
    const personEvents = await drain(ts.ownerClient, people.body.queue_id, -1);
    assert.deepEqual(
      personEvents.map((e) => [e.type, e.op]),
      [['realm_user', 'add']],
    );
    assert.equal((await drain(ts.ownerClient, drafts.body.queue_id, -1)).length, 1, 'no realm_user event');
  });

  it('keeps client_capabilities on the queue and refuses a malformed one', async () => {
    const caps = { notification_settings_null: true, bulk_message_deletion: false, user_avatar_url_field_optional: true };
    const res = await register({ fetch_event_types: [], client_capabilities: caps });
    assert.equal(res.status, 200);
    const queue = ts.app.events.get(res.body.queue_id)!;
    assert.deepEqual(queue.opts.clientCapabilities, caps);
    assert.equal(queue.capability('notification_settings_null'), true);
    assert.equal(queue.capability('bulk_message_deletion'), false);
    assert.equal(queue.capability('empty_topic_name'), false);

    for (const bad of [[true], { x: 'yes' }, 'nope']) {
      const r = await register({ client_capabilities: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match(r.body.msg, /client_capabilities/);
    }
  });

  it('keeps the queue options it was given', async () => {
    const res = await register({
      fetch_event_types: [],
      apply_markdown: true,
      client_gravatar: false,
      slim_presence: true,
      all_public_streams: true,
    });
    const o = ts.app.events.get(res.body.queue_id)!.opts;
    assert.equal(o.applyMarkdown, true);
    assert.equal(o.clientGravatar, false);
    assert.equal(o.slimPresence, true);
    assert.equal(o.allPublicStreams, true);
    const defaults = ts.app.events.get((await register({ fetch_event_types: [] })).body.queue_id)!.opts;
    assert.equal(defaults.applyMarkdown, false);
    assert.equal(defaults.clientGravatar, true, 'client_gravatar defaults to true when authenticated');
    assert.deepEqual(defaults.narrow, []);
  });

  it('accepts narrows in the legacy pair form and the operator/operand form', async () => {
    const legacy = await register({ fetch_event_types: [], narrow: [['stream', 'Denmark'], ['topic', 'lunch']] });
    assert.equal(legacy.status, 200, JSON.stringify(legacy.body));
    assert.deepEqual(ts.app.events.get(legacy.body.queue_id)!.opts.narrow, [
      ['stream', 'Denmark'],
      ['topic', 'lunch'],
    ]);

    const modern = await register({
      fetch_event_types: [],
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'is', operand: 'dm', negated: false },
      ],
    });
    assert.equal(modern.status, 200, JSON.stringify(modern.body));
    assert.deepEqual(ts.app.events.get(modern.body.queue_id)!.opts.narrow, [
      ['channel', 'Denmark'],
      ['is', 'dm'],
    ]);

    const mixed = await register({ fetch_event_types: [], narrow: [['is', 'private'], { operator: 'sender', operand: 'a@b.c' }] });
    assert.equal(mixed.status, 200, JSON.stringify(mixed.body));
  });

  it('refuses malformed narrows with a 400 and allocates nothing', async () => {
    const before = ts.app.events.size;
    const bad: unknown[] = [
      'stream:Denmark',
      '[["stream","Denmark"]',
      { operator: 'stream', operand: 'x' },
      [['stream']],
      [['stream', 'a', 'b']],
      [['stream', 5]],
      [[1, 'x']],
      ['stream'],
      [5],
      [{ operand: 'x' }],
      [{ operator: 'stream' }],
      [{ operator: 5, operand: 'x' }],
      [{ operator: 'stream', operand: 'x', negated: 'yes' }],
      [{ operator: 'stream', operand: 'x', extra: 1 }],
    ];
    for (const narrow of bad) {
      const res = await register({ narrow: narrow as string | object });
      assert.equal(res.status, 400, `${JSON.stringify(narrow)} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, 'error');
    }
    assert.equal(ts.app.events.size, before);
  });

  it('validates include_subscribers as true, false or partial', async () => {
    for (const ok of ['true', 'false', 'partial', true, false]) {
      const res = await register({ fetch_event_types: [], include_subscribers: ok });
      assert.equal(res.status, 200, `${ok}: ${JSON.stringify(res.body)}`);
    }
    for (const bad of ['maybe', '1', 'TRUE', '']) {
      const res = await register({ fetch_event_types: [], include_subscribers: bad });
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.msg, /include_subscribers/);
    }
  });

  it('refuses an unauthenticated register unless the organization is web-public', async () => {
    const realm = ts.store.realm.data.realm!;
    const refused = async (why: string) => {
      const before = ts.app.events.size;
      const res = await ts.anonymous.post('/register', {});
      assert.equal(res.status, 401, `${why}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, 'error', why);
      assert.equal(res.body.code, 'UNAUTHORIZED', why);
      assert.equal(res.headers.get('www-authenticate'), 'Basic realm="zulip"', why);
      assert.equal(ts.app.events.size, before, why);
    };
    // Zulip's allow_web_public_streams_access: the server switch, spectator access and a web-public channel.
    await refused('nothing is on');
    realm.settings.enable_spectator_access = true;
    try {
      await refused('spectator access alone (the server switch is off)');
      ts.app.config.webPublicStreamsEnabled = true;
      await refused('spectator access and the server switch, but no web-public channel');
      const id = await createChannel(ts, ts.ownerClient, 'porch');
      const made = await ts.ownerClient.patch(`/streams/${id}`, { is_web_public: true });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal((await ts.anonymous.post('/register', {})).status, 200, 'a web-public organization');
      realm.settings.enable_spectator_access = false;
      await refused('spectator access turned off again');
      realm.settings.enable_spectator_access = true;
      ts.app.config.webPublicStreamsEnabled = false;
      await refused('the server switch turned off again');
      ts.app.config.webPublicStreamsEnabled = true;
      const archived = await ts.ownerClient.delete(`/streams/${id}`);
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      await refused('the only web-public channel archived');
    } finally {
      ts.app.config.webPublicStreamsEnabled = false;
      realm.settings.enable_spectator_access = false;
    }
  });

  it('serves spectators without a queue in a web-public organization', async () => {
    const settings = ts.store.realm.data.realm!.settings;
    settings.enable_spectator_access = true;
    ts.app.config.webPublicStreamsEnabled = true;
    try {
      const id = await createChannel(ts, ts.ownerClient, 'window');
      const made = await ts.ownerClient.patch(`/streams/${id}`, { is_web_public: true });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const before = ts.app.events.size;
      const res = await ts.anonymous.post('/register', {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.queue_id, null);
      assert.equal(res.body.last_event_id, -1);
      assert.equal('idle_queue_timeout_secs' in res.body, false);
      assert.equal(res.body.service_feature_level, 491);
      assert.equal(res.body.realm_name, 'Test Org');
      assert.equal(res.body.realm_enable_spectator_access, true);
      assert.deepEqual(res.body.drafts, []);
      assert.equal('user_id' in res.body, false, 'a spectator is nobody');
      assert.equal(ts.app.events.size, before, 'spectators get no queue');

      const gravatar = await ts.anonymous.post('/register', { client_gravatar: true });
      assert.equal(gravatar.status, 400);
      assert.match(gravatar.body.msg, /client_gravatar/);
      const subs = await ts.anonymous.post('/register', { include_subscribers: true });
      assert.equal(subs.status, 400);
      assert.match(subs.body.msg, /include_subscribers/);
      const subsString = await ts.anonymous.post('/register', { include_subscribers: 'true' });
      assert.equal(subsString.status, 400);
      const bogus = await ts.anonymous.post('/register', { include_subscribers: 'sometimes' });
      assert.equal(bogus.status, 400);

      for (const ok of [{ client_gravatar: false }, { include_subscribers: 'partial' }, { include_subscribers: false }]) {
        const r = await ts.anonymous.post('/register', ok);
        assert.equal(r.status, 200, `${JSON.stringify(ok)}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.queue_id, null);
      }

      const bad = await ts.anonymous.call('POST', '/register', {}, { headers: { authorization: 'Basic bm9ib2R5Om5vcGU=' } });
      assert.equal(bad.status, 401, 'credentials that are sent must be valid');
      const archived = await ts.ownerClient.delete(`/streams/${id}`);
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
    } finally {
      settings.enable_spectator_access = false;
      ts.app.config.webPublicStreamsEnabled = false;
    }
  });

  it('still serves authenticated users their own queue in a web-public organization', async () => {
    const settings = ts.store.realm.data.realm!.settings;
    settings.enable_spectator_access = true;
    ts.app.config.webPublicStreamsEnabled = true;
    try {
      const res = await register({ fetch_event_types: ['realm_user'] });
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.queue_id, 'string');
      assert.equal(res.body.user_id, ts.owner.id);
    } finally {
      settings.enable_spectator_access = false;
      ts.app.config.webPublicStreamsEnabled = false;
    }
  });

  it('refuses all_public_streams to guests (Zulip: User not authorized for this query)', async () => {
    const guest = await ts.addUser('Gus', 600);
    const member = await ts.addUser('Mia', 400);
    const before = ts.app.events.size;
    const refused = await ts.client(guest).post('/register', { all_public_streams: true, fetch_event_types: [] });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'BAD_REQUEST');
    assert.equal(refused.body.msg, 'User not authorized for this query');
    assert.equal(ts.app.events.size, before, 'no queue for a refused register');
    const plain = await ts.client(guest).post('/register', { all_public_streams: false, fetch_event_types: [] });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    const allowed = await ts.client(member).post('/register', { all_public_streams: true, fetch_event_types: [] });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal(ts.app.events.get(allowed.body.queue_id)?.opts.allPublicStreams, true);
    await ts.client(guest).delete('/events', { queue_id: plain.body.queue_id });
    await ts.client(member).delete('/events', { queue_id: allowed.body.queue_id });
  });

  it('lists parameters it does not know in ignored_parameters_unsupported', async () => {
    const res = await register({ fetch_event_types: [], no_such_param: 'x' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.ignored_parameters_unsupported, ['no_such_param']);
  });
});
