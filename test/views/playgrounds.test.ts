import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['realm_playgrounds'] };

describe('code playgrounds', () => {
  let ts: TestServer;
  let mel: Client;
  before(async () => {
    ts = await startTestServer();
    [{ client: mel }] = await ts.people('Mel');
  });
  after(() => ts.stop());

  const stored = async () => {
    await ts.store.settled();
    return JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm.playgrounds;
  };

  it('administrators add and remove them (verifyAction: realm_playgrounds); everyone gets the list at register', async () => {
    const refused = await mel.post('/realm/playgrounds', { name: 'Py', pygments_language: 'Python', url_template: 'https://py.example/?code={code}' });
    assert.equal(refused.body.msg, 'Must be an organization administrator');
    let id = 0;
    const events = await verifyAction(mel, async () => {
      const res = await ts.ownerClient.post('/realm/playgrounds', { name: ' Python playground ', pygments_language: 'Python', url_template: 'https://py.example/?code={code}' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.id;
    }, REGISTER);
    const expected = [{ id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://py.example/?code={code}' }];
    assert.deepEqual(events.map((e) => [e.type, e.realm_playgrounds]), [['realm_playgrounds', expected]]);
    assert.deepEqual((await mel.post('/register', REGISTER)).body.realm_playgrounds, expected);
    assert.deepEqual(await stored(), expected);
    const removed = await verifyAction(mel, () => ts.ownerClient.delete(`/realm/playgrounds/${id}`), REGISTER);
    assert.deepEqual(removed.map((e) => e.realm_playgrounds), [[]]);
    const again = await ts.ownerClient.delete(`/realm/playgrounds/${id}`);
    assert.equal(again.body.msg, 'Invalid playground');
  });

  it('validates as Zulip does; nothing stored on error', async () => {
    const ok = { name: 'Rust', pygments_language: 'Rust', url_template: 'https://play.example/?code={code}' };
    assert.equal((await ts.ownerClient.post('/realm/playgrounds', ok)).status, 200);
    const before = await stored();
    for (const [params, msg] of [
      [{ ...ok, pygments_language: 'Rust<script>' }, 'Invalid characters in pygments language'],
      [{ ...ok, name: 'Other', url_template: 'https://play.example/?code={code' }, 'Invalid URL template.'],
      [{ ...ok, name: 'Other', url_template: 'https://play.example/' }, 'Missing the required variable "code" in the URL template'],
      [{ ...ok, name: 'Other', url_template: 'https://play.example/{lang}?c={code}' }, '"code" should be the only variable present in the URL template'],
      [{ ...ok, name: 'Other', url_template: 'javascript:run({code})' }, 'Invalid URL template.'],
      [ok, 'Realm playground with this Realm, Pygments language and Name already exists.'],
    ] as const) {
      const res = await ts.ownerClient.post('/realm/playgrounds', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg);
    }
    assert.deepEqual(await stored(), before);
  });
});
