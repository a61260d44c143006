/**
 * The remaining users endpoints against all eight callers (the others have
 * their matrix in their own files): answers and stored state.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Caller, type Cast } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const active = (c: Caller) => c !== 'deactivated' && c !== 'anonymous';

describe('users endpoints × callers', () => {
  let ts: TestServer;
  let cast: Cast;
  let fieldId = 0;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
    fieldId = (await ts.ownerClient.post('/realm/profile_fields', { name: 'Desk', field_type: 1 })).body.id;
  });
  after(() => ts.stop());

  it('GET /users/me, /users/{id}, /users/{email}: active accounts only', async () => {
    const member = cast.member;
    for (const caller of CALLERS) {
      const c = cast.client(caller);
      for (const path of ['/users/me', `/users/${member.id}`, `/users/${member.email}`]) {
        const res = await c.get(path);
        assert.equal(res.status, active(caller) ? 200 : 401, `${caller} ${path}`);
        if (caller === 'deactivated') assert.equal(res.body.code, 'UNAUTHORIZED');
      }
    }
  });

  it('DELETE /users/me/avatar: active accounts reset their own avatar (version bumps), nobody else', async () => {
    for (const caller of CALLERS) {
      const id = caller === 'anonymous' ? null : cast[caller].id;
      const before = id === null ? 0 : ts.store.users.get(id)!.avatar_version;
      const res = await cast.client(caller).delete('/users/me/avatar');
      assert.equal(res.status, active(caller) ? 200 : 401, caller);
      if (id !== null) assert.equal(ts.store.users.get(id)!.avatar_version, before + (active(caller) ? 1 : 0), caller);
    }
  });

  it('PATCH and DELETE /users/me/profile_data: humans only', async () => {
    for (const caller of CALLERS) {
      const c = cast.client(caller);
      const expected = caller === 'bot' ? 400 : active(caller) ? 200 : 401;
      const set = await c.patch('/users/me/profile_data', { data: [{ id: fieldId, value: `desk ${caller}` }] });
      assert.equal(set.status, expected, caller);
      if (caller !== 'anonymous') {
        const stored = ts.store.users.get(cast[caller].id)!.profile_data?.[String(fieldId)];
        assert.equal(stored?.value, expected === 200 ? `desk ${caller}` : undefined, caller);
      }
      const del = await c.delete('/users/me/profile_data', { data: [fieldId] });
      assert.equal(del.status, expected, caller);
      if (caller !== 'anonymous') {
        assert.equal(ts.store.users.get(cast[caller].id)!.profile_data?.[String(fieldId)], undefined, caller);
      }
    }
  });

  it('GET /avatar/{id}: served to anyone (image tags carry no key); sent credentials must be valid', async () => {
    for (const caller of CALLERS) {
      const res = await fetch(`${ts.url}/avatar/${cast.member.id}`, { headers: cast.client(caller).authHeader });
      assert.equal(res.status, caller === 'deactivated' ? 401 : 200, caller);
      await res.arrayBuffer();
    }
  });

  it('DELETE /users/me: every active account may leave (not the last owner), others get 401', async () => {
    const fresh = await castOf(ts);
    // The bot first: its owner (the member) leaving takes it along.
    const order: Caller[] = ['bot', ...CALLERS.filter((c) => c !== 'bot')];
    for (const caller of order) {
      const res = await fresh.client(caller).delete('/users/me');
      assert.equal(res.status, active(caller) ? 200 : 401, `${caller}: ${JSON.stringify(res.body)}`);
      if (caller !== 'anonymous') assert.equal(ts.store.users.get(fresh[caller].id)!.is_active, false, caller);
    }
    assert.equal(ts.store.users.get(ts.owner.id)!.is_active, true);
  });
});
