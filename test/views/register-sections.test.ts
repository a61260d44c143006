/**
 * POST /register answers each of Zulip's section names (fetch_event_types) with that
 * section's keys, by Zulip's names (test/helpers/zulip-register-sections.ts), and every
 * section Hearth has is named as Zulip names it. zulip-term, for one, registers with
 * `realm_user_groups` and crashed when Hearth keyed that section by the event type.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildStateRegistry } from '../../server/register/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ZULIP_COMPOUND_SECTIONS, ZULIP_REGISTER_SECTIONS } from '../helpers/zulip-register-sections.js';

/** Keys every register answer has, whatever was asked. */
const ALWAYS = new Set(['result', 'msg', 'queue_id', 'last_event_id', 'idle_queue_timeout_secs', 'event_queue_longpoll_timeout_seconds']);
const isVersionKey = (k: string) => /^(zulip|service)_(version|feature_level|merge_base)$/.test(k);

describe("register sections by Zulip's names", () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  const keysFor = async (names: string[]) => {
    const res = await ts.ownerClient.post('/register', { fetch_event_types: names });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return Object.keys(res.body).filter((k) => !ALWAYS.has(k) && !isVersionKey(k));
  };

  it('each name returns its keys', async () => {
    const missing: string[] = [];
    for (const [name, keys] of Object.entries(ZULIP_REGISTER_SECTIONS)) {
      const got = new Set(await keysFor([name]));
      for (const k of keys) if (!got.has(k)) missing.push(`${name}: ${k}`);
      // A section that returns nothing in Zulip returns nothing here either.
      if (keys.length === 0) assert.deepEqual([...got], [], `${name} returns nothing`);
    }
    assert.deepEqual(missing, []);
  });

  it('sections are not answered under other names (zulip-term asked for realm_user_groups; user_group was Hearth\'s wrong name)', async () => {
    assert.deepEqual(await keysFor(['user_group', 'navigation_view', 'typing']), []);
    assert.ok((await keysFor(['realm_user_groups'])).includes('realm_user_groups'));
    // A name returns its own section only: linkifiers do not bring the organization along.
    assert.deepEqual(await keysFor(['realm_linkifiers']), ['realm_linkifiers']);
  });

  it('compound sections need every name, as Zulip', async () => {
    for (const [names, keys] of ZULIP_COMPOUND_SECTIONS) {
      const all = await keysFor([...names]);
      for (const k of keys) assert.ok(all.includes(k), `${names.join('+')} gives ${k}`);
      for (const one of names) for (const k of keys) assert.ok(!(await keysFor([one])).includes(k), `${one} alone does not give ${k}`);
    }
  });

  it("every section Hearth has answers a name in Zulip's table", () => {
    const unknown = [...buildStateRegistry().wantNames()].filter((n) => !(n in ZULIP_REGISTER_SECTIONS));
    assert.deepEqual(unknown, []);
  });
});
