import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const storedFields = async (ts: TestServer) => {
  await ts.store.settled();
  return JSON.parse(await readFile(join(ts.dataDir, 'profile_fields.json'), 'utf8')).fields as Record<string, unknown>[];
};

const CHOICES = { '0': { text: 'Red', order: '1' }, '1': { text: 'Blue', order: '2' } };

async function create(client: Client, params: Record<string, unknown>) {
  return client.post('/realm/profile_fields', params as never);
}

describe('custom profile fields: /realm/profile_fields', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('role matrix: administrators create, update, reorder and delete; everyone active reads', async () => {
    const base = (await create(ts.ownerClient, { name: 'Base', field_type: 1 })).body.id as number;
    const admins = new Set(['owner', 'admin']);
    for (const caller of CALLERS) {
      const client = cast.client(caller);
      const before = (await storedFields(ts)).length;
      const res = await create(client, { name: `Desk ${caller}`, field_type: 1 });
      const ok = admins.has(caller);
      const denied = caller === 'deactivated' || caller === 'anonymous' ? 401 : 400;
      assert.equal(res.status, ok ? 200 : denied, `${caller}: ${JSON.stringify(res.body)}`);
      assert.equal((await storedFields(ts)).length, before + (ok ? 1 : 0), caller);
      const list = await client.get('/realm/profile_fields');
      assert.equal(list.status, caller === 'deactivated' || caller === 'anonymous' ? 401 : 200, caller);
      const fieldId = ok ? res.body.id : base;
      const upd = await client.patch(`/realm/profile_fields/${fieldId}`, { hint: `by ${caller}` });
      assert.equal(upd.status, ok ? 200 : denied, caller);
      const ids = (await storedFields(ts)).map((f) => f.id as number);
      const re = await client.patch('/realm/profile_fields', { order: [...ids].reverse() });
      assert.equal(re.status, ok ? 200 : denied, caller);
      if (ok) {
        const del = await client.delete(`/realm/profile_fields/${fieldId}`);
        assert.equal(del.status, 200);
        assert.ok(!(await storedFields(ts)).some((f) => f.id === fieldId));
      } else {
        const del = await client.delete(`/realm/profile_fields/${fieldId}`);
        assert.equal(del.status, denied, caller);
        assert.equal((await storedFields(ts)).find((f) => f.id === base)!.hint, '', caller);
      }
    }
    await ts.ownerClient.delete(`/realm/profile_fields/${base}`);
  });

  it('create, update, reorder, delete: each announced with the whole list (verifyAction) and in register', async () => {
    const admin = cast.client('admin');
    let id = 0;
    const events = await verifyAction(cast.client('member'), async () => {
      const res = await create(admin, { name: 'Team', hint: 'Your team', field_type: 3, field_data: CHOICES, display_in_profile_summary: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.id;
    });
    assert.equal(events.length, 1);
    const fields = (events[0] as { fields: Record<string, unknown>[] }).fields;
    const field = fields.find((f) => f.id === id)!;
    assert.deepEqual(field, {
      id,
      name: 'Team',
      type: 3,
      hint: 'Your team',
      field_data: JSON.stringify(CHOICES),
      order: field.order,
      required: false,
      editable_by_user: true,
      use_for_user_matching: false,
      display_in_profile_summary: true,
    });
    const reg = await cast.client('guest').post('/register', { fetch_event_types: ['custom_profile_fields'] });
    assert.ok(reg.body.custom_profile_fields.some((f: { id: number }) => f.id === id));
    assert.equal(reg.body.custom_profile_field_types.PRONOUNS.id, 8);

    const second = (await create(admin, { name: 'Phone', field_type: 1 })).body.id;
    await verifyAction(cast.client('member'), async () => {
      assert.equal((await admin.patch(`/realm/profile_fields/${id}`, { name: 'Squad', required: true, editable_by_user: false })).status, 200);
      assert.equal((await admin.patch('/realm/profile_fields', { order: [second, id] })).status, 200);
    });
    const stored = await storedFields(ts);
    const squad = stored.find((f) => f.id === id)!;
    assert.equal(squad.name, 'Squad');
    assert.equal(squad.required, true);
    assert.equal(squad.editable_by_user, false);
    assert.ok((stored.find((f) => f.id === second)!.order as number) < (squad.order as number));
    const list = await cast.client('member').get('/realm/profile_fields');
    assert.deepEqual(list.body.custom_fields.map((f: { id: number }) => f.id), [second, id]);

    await verifyAction(cast.client('member'), async () => {
      assert.equal((await admin.delete(`/realm/profile_fields/${second}`)).status, 200);
      assert.equal((await admin.delete(`/realm/profile_fields/${id}`)).status, 200);
    });
    assert.deepEqual(await storedFields(ts), []);
    const gone = await admin.delete(`/realm/profile_fields/${id}`);
    assert.equal(gone.body.msg, `Field id ${id} not found.`);
  });

  it('definition rules: types, labels, choices, external accounts, summary limits', async () => {
    const admin = cast.client('admin');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'X', field_type: 9 }, 'Invalid field type.'],
      [{ name: '   ', field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'H', hint: 'x'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
      [{ name: 'Pick', field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
      [{ name: 'Pick', field_type: 3, field_data: { a: { text: 'A' } } }, 'order key is missing from field_data["a"]'],
      [
        { name: 'Pick', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } },
        'Field must not have duplicate choices.',
      ],
      [{ name: 'Ext', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
      [{ name: 'Ext', field_type: 7, field_data: { subtype: 'custom' } }, 'Custom external account must define URL pattern'],
      [
        { name: 'Ext', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.example/' } },
        "URL pattern must contain '%(username)s'.",
      ],
      [{ name: 'Mentor', field_type: 6, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
    ];
    for (const [params, msg] of cases) {
      const res = await create(admin, params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg, JSON.stringify(params));
    }
    assert.deepEqual(await storedFields(ts), []);

    // Paragraph fields may be shown in the summary since Zulip 12 (feature level 476).
    const bio = await create(admin, { name: 'Bio', field_type: 2, display_in_profile_summary: true });
    assert.equal(bio.status, 200, JSON.stringify(bio.body));
    assert.equal((await storedFields(ts)).find((f) => f.id === bio.body.id)!.display_in_profile_summary, true);
    assert.equal((await admin.delete(`/realm/profile_fields/${bio.body.id}`)).status, 200);

    const gh = await create(admin, { field_type: 7, field_data: { subtype: 'github' } });
    assert.equal(gh.status, 200, JSON.stringify(gh.body));
    const stored = (await storedFields(ts)).find((f) => f.id === gh.body.id)!;
    assert.equal(stored.name, 'GitHub');
    const rename = await admin.patch(`/realm/profile_fields/${gh.body.id}`, { name: 'Code' });
    assert.equal(rename.body.msg, 'Default custom field cannot be updated.');
    const dup = await create(admin, { name: 'github', field_type: 1 });
    assert.equal(dup.body.msg, 'A field with that label already exists.');
    const custom = await create(admin, {
      name: 'Mastodon',
      field_type: 7,
      field_data: { subtype: 'custom', url_pattern: 'https://social.example/@%(username)s' },
    });
    assert.equal(custom.status, 200, JSON.stringify(custom.body));

    assert.equal((await create(admin, { name: 'S1', field_type: 1, display_in_profile_summary: true })).status, 200);
    assert.equal((await create(admin, { name: 'S2', field_type: 4, display_in_profile_summary: true })).status, 200);
    const third = await create(admin, { name: 'S3', field_type: 5, display_in_profile_summary: true });
    assert.equal(third.body.msg, 'Only 2 custom profile fields can be displayed in the profile summary.');
    const ids = (await storedFields(ts)).map((f) => f.id as number);
    const badOrder = await admin.patch('/realm/profile_fields', { order: ids.slice(1) });
    assert.equal(badOrder.body.msg, 'Invalid order mapping.');
    for (const id of ids) await admin.delete(`/realm/profile_fields/${id}`);
  });
});
