/**
 * `hearth zulip-fixup --site URL --email EMAIL --api-key KEY --fixup FILE`: after Zulip imported
 * an export, puts right over Zulip's REST API what its Rocket.Chat converter dropped or changed
 * (hearth-fixup.json, fixup-file.ts): the organization's name and description, custom profile
 * fields and their values, roles (the converter makes administrators owners and moderators
 * members), people deactivated in Hearth, channel folders and descriptions, user groups, each topic's exact name, and
 * archived channels. Every step looks before it changes anything, so a
 * second run changes nothing and an interrupted run resumes. Needs an owner's API key.
 */
import { isSystemBotAddress } from '../lib/people/reserved.js';
import { readFile } from 'node:fs/promises';
import { FIXUP_FORMAT, type FixupFile } from './fixup-file.js';
import { ZulipApi, ZulipApiError, type Json } from './zulip-api.js';

export class FixupRefused extends Error {}

interface Target {
  api: ZulipApi;
  me: Json;
  usersByEmail: Map<string, Json>;
}

interface Tally {
  changed: number;
  failed: string[];
}

type Step = (t: Target, f: FixupFile, tally: Tally, say: (line: string) => void) => Promise<void>;

const attempt = async (tally: Tally, what: string, work: () => Promise<unknown>): Promise<void> => {
  try {
    await work();
    tally.changed += 1;
  } catch (err) {
    tally.failed.push(`${what}: ${err instanceof ZulipApiError ? err.message : (err as Error).message}`);
  }
};

const emailOf = (u: Json) => String(u.delivery_email ?? u.email ?? '').toLowerCase();

async function loadUsers(t: Target): Promise<void> {
  const { members } = (await t.api.call('GET', '/users', { include_custom_profile_fields: true })) as { members: Json[] };
  t.usersByEmail = new Map(members.map((u) => [emailOf(u), u]));
}

const organization: Step = async (t, f, tally) => {
  // The name tells whether this ran: the converter names the organization after nothing of Hearth's.
  const settings = await t.api.call('GET', '/server_settings');
  if (settings.realm_name === f.organization.name) return;
  await attempt(tally, 'organization name and description', () =>
    t.api.call('PATCH', '/realm', { name: f.organization.name, ...(f.organization.description ? { description: f.organization.description } : {}) }),
  );
};

const profileFields: Step = async (t, f, tally) => {
  const { custom_fields } = (await t.api.call('GET', '/realm/profile_fields')) as { custom_fields: Json[] };
  const have = new Map(custom_fields.map((c) => [String(c.name), c]));
  for (const field of f.profile_fields) {
    if (have.has(field.name)) continue;
    await attempt(tally, `profile field "${field.name}"`, () =>
      t.api.call('POST', '/realm/profile_fields', {
        name: field.name,
        hint: field.hint,
        field_type: field.field_type,
        ...(field.field_data && field.field_data !== '{}' && field.field_data !== '' ? { field_data: field.field_data } : {}),
        display_in_profile_summary: field.display_in_profile_summary,
        required: field.required,
        editable_by_user: field.editable_by_user,
      }),
    );
  }
  const { custom_fields: now } = (await t.api.call('GET', '/realm/profile_fields')) as { custom_fields: Json[] };
  const fieldByName = new Map(now.map((c) => [String(c.name), c]));
  await loadUsers(t);
  const byPerson = new Map<string, { id: number; value: unknown }[]>();
  for (const v of f.profile_values) {
    const field = fieldByName.get(v.field);
    const person = t.usersByEmail.get(v.email.toLowerCase());
    if (!field || !person) continue;
    const value = Array.isArray(v.value) ? v.value.map((e) => t.usersByEmail.get(e.toLowerCase())?.user_id).filter((x) => x !== undefined) : v.value;
    const current = (person.profile_data as Record<string, { value: unknown }> | undefined)?.[String(field.id)]?.value;
    const wanted = Array.isArray(value) ? JSON.stringify(value) : value;
    if (current === wanted) continue;
    byPerson.set(v.email, [...(byPerson.get(v.email) ?? []), { id: Number(field.id), value }]);
  }
  for (const [email, data] of byPerson) {
    const id = t.usersByEmail.get(email.toLowerCase())!.user_id;
    await attempt(tally, `profile of ${email}`, () => t.api.call('PATCH', `/users/${String(id)}`, { profile_data: data }));
  }
};

const people: Step = async (t, f, tally) => {
  await loadUsers(t);
  const myEmail = emailOf(t.me);
  for (const u of f.users) {
    // The system bots are the Zulip server's own (its importer maps them there): nothing to restore.
    if (isSystemBotAddress(u.email)) continue;
    const target = t.usersByEmail.get(u.email.toLowerCase());
    if (!target) {
      tally.failed.push(`${u.email}: not on the Zulip server`);
      continue;
    }
    if (u.is_bot || emailOf(target) === myEmail) continue;
    if (target.is_active && target.role !== u.role) {
      await attempt(tally, `role of ${u.email}`, () => t.api.call('PATCH', `/users/${String(target.user_id)}`, { role: u.role }));
    }
    if (!u.is_active && target.is_active) {
      await attempt(tally, `deactivating ${u.email}`, () => t.api.call('DELETE', `/users/${String(target.user_id)}`));
    }
  }
};

const channels: Step = async (t, f, tally) => {
  const { channel_folders } = (await t.api.call('GET', '/channel_folders', { include_archived: true })) as { channel_folders: Json[] };
  const folders = new Map(channel_folders.map((c) => [String(c.name), Number(c.id)]));
  for (const folder of f.channel_folders) {
    if (folders.has(folder.name)) continue;
    await attempt(tally, `channel folder "${folder.name}"`, async () => {
      const r = await t.api.call('POST', '/channel_folders/create', { name: folder.name, description: folder.description });
      folders.set(folder.name, Number(r.channel_folder_id));
    });
  }
  const { streams } = (await t.api.call('GET', '/streams', { include_all: true, exclude_archived: false })) as { streams: Json[] };
  const byName = new Map(streams.map((s) => [String(s.name), s]));
  for (const c of f.channels) {
    const s = byName.get(c.name);
    if (!s) {
      tally.failed.push(`channel #${c.name}: not on the Zulip server`);
      continue;
    }
    const changes: Json = {};
    if (String(s.description ?? '') !== c.description) changes.description = c.description;
    const folderId = c.folder === null ? null : (folders.get(c.folder) ?? null);
    if (c.folder !== null && folderId !== null && s.folder_id !== folderId) changes.folder_id = folderId;
    if (Object.keys(changes).length && !s.is_archived) await attempt(tally, `channel #${c.name}`, () => t.api.call('PATCH', `/streams/${String(s.stream_id)}`, changes));
  }
};

/** Last: an archived channel's topics can no longer be renamed. */
const archived: Step = async (t, f, tally) => {
  const { streams } = (await t.api.call('GET', '/streams', { include_all: true, exclude_archived: false })) as { streams: Json[] };
  const byName = new Map(streams.map((s) => [String(s.name), s]));
  for (const c of f.channels) {
    const s = byName.get(c.name);
    if (s && c.is_archived && !s.is_archived) await attempt(tally, `archiving #${c.name}`, () => t.api.call('DELETE', `/streams/${String(s.stream_id)}`));
  }
};

const groups: Step = async (t, f, tally) => {
  await loadUsers(t);
  const idOf = (email: string) => t.usersByEmail.get(email.toLowerCase())?.user_id as number | undefined;
  const load = async () => ((await t.api.call('GET', '/user_groups')) as { user_groups: Json[] }).user_groups;
  let all = await load();
  for (const g of f.groups) {
    if (all.some((x) => x.name === g.name)) continue;
    const members = g.members.map(idOf).filter((x): x is number => x !== undefined);
    await attempt(tally, `group @${g.name}`, () => t.api.call('POST', '/user_groups/create', { name: g.name, description: g.description, members }));
  }
  all = await load();
  const byName = new Map(all.map((x) => [String(x.name), x]));
  for (const g of f.groups) {
    const target = byName.get(g.name);
    if (!target) continue;
    const has = new Set((target.members as number[] | undefined) ?? []);
    const add = g.members.map(idOf).filter((x): x is number => x !== undefined && !has.has(x));
    if (add.length) await attempt(tally, `members of @${g.name}`, () => t.api.call('POST', `/user_groups/${String(target.id)}/members`, { add }));
    const subs = new Set((target.direct_subgroup_ids as number[] | undefined) ?? []);
    const addSubs = g.subgroups.map((n) => byName.get(n)?.id as number | undefined).filter((x): x is number => x !== undefined && !subs.has(x));
    if (addSubs.length) await attempt(tally, `subgroups of @${g.name}`, () => t.api.call('POST', `/user_groups/${String(target.id)}/subgroups`, { add: addSubs }));
  }
};

const topics: Step = async (t, f, tally, say) => {
  let done = 0;
  for (const topic of f.topics) {
    done += 1;
    if (done % 50 === 0) say(`  topics: ${done} of ${f.topics.length}`);
    if (topic.imported === topic.topic) continue;
    let found: Json[];
    try {
      const narrow = [
        { operator: 'channel', operand: topic.channel },
        { operator: 'topic', operand: topic.imported },
      ];
      found = ((await t.api.call('GET', '/messages', { narrow, anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false })) as { messages: Json[] }).messages;
    } catch (err) {
      tally.failed.push(`topic "${topic.topic}" in #${topic.channel}: ${(err as Error).message}`);
      continue;
    }
    const first = found[0];
    if (!first || String(first.subject) !== topic.imported) continue; // renamed already (or never imported)
    await attempt(tally, `topic "${topic.topic}" in #${topic.channel}`, () =>
      t.api.call('PATCH', `/messages/${String(first.id)}`, {
        topic: topic.topic,
        propagate_mode: 'change_all',
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      }),
    );
  }
};

const STEPS: [string, Step][] = [
  ['Organization name and description', organization],
  ['Custom profile fields and values', profileFields],
  ['Roles and deactivated people', people],
  ['Channel folders and descriptions', channels],
  ['User groups', groups],
  ['Topic names', topics],
  ['Archived channels', archived],
];

export function parseFixupFile(text: string): FixupFile {
  let f: FixupFile;
  try {
    f = JSON.parse(text) as FixupFile;
  } catch {
    throw new FixupRefused('the fix-up file is not JSON (it is hearth-fixup.json in the export folder)');
  }
  if (f?.format !== FIXUP_FORMAT || f.version !== 1) throw new FixupRefused('not a Hearth fix-up file (hearth-fixup.json, version 1)');
  return f;
}

/** Runs every step; true when nothing failed. */
export async function runFixupCommand(
  opts: { site: string; email: string; apiKey: string; fixupFile: string },
  say: (line: string) => void,
): Promise<boolean> {
  const text = await readFile(opts.fixupFile, 'utf8').catch(() => {
    throw new FixupRefused(`cannot read ${opts.fixupFile}`);
  });
  const f = parseFixupFile(text);
  if (!/^https?:\/\//.test(opts.site)) throw new FixupRefused(`--site takes the server's address, such as https://zulip.example.com, not '${opts.site}'`);
  const api = new ZulipApi(opts.site, opts.email, opts.apiKey);
  let me: Json;
  try {
    me = await api.call('GET', '/users/me');
  } catch (err) {
    throw new FixupRefused(`cannot sign in to ${opts.site} as ${opts.email}: ${(err as Error).message}`);
  }
  if (me.is_owner !== true) throw new FixupRefused(`${opts.email} is not an owner of that organization (the fix-up changes roles and settings)`);
  const target: Target = { api, me, usersByEmail: new Map() };
  const tally: Tally = { changed: 0, failed: [] };
  for (const [i, [name, step]] of STEPS.entries()) {
    say(`[${i + 1}/${STEPS.length}] ${name}`);
    try {
      await step(target, f, tally, say);
    } catch (err) {
      tally.failed.push(`${name}: ${(err as Error).message}`);
    }
  }
  say(`Done: ${tally.changed} change${tally.changed === 1 ? '' : 's'} made.`);
  if (tally.failed.length) {
    say(`Could not restore (${tally.failed.length}):`);
    for (const line of tally.failed) say(`  - ${line}`);
  }
  say(`Not carried over by the import at all: ${f.not_restored.join('; ')}.`);
  return tally.failed.length === 0;
}
