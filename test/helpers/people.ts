/**
 * People for tests: one account per caller kind of the role matrices (owner, administrator,
 * moderator, member, guest, bot, deactivated user and anonymous), and the system groups' IDs.
 * Single members are `ts.addUser(name, role)` or `ts.people('Mel', 'Sam')` (test/helpers/server.ts).
 */
import assert from 'node:assert/strict';
import { doCreateUser } from '../../server/actions/users.js';
import { doDeactivateUser } from '../../server/actions/users-activation.js';
import type { Account, Client, TestServer } from './server.js';

export type Caller = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot' | 'deactivated' | 'anonymous';
export const CALLERS: Caller[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot', 'deactivated', 'anonymous'];

/** The callers with an account. */
export type CastRole = Exclude<Caller, 'anonymous'>;

/** One account per caller kind but anonymous (`cast.member`, `cast[role]`), and a client for any caller. */
export type Cast = Record<CastRole, Account> & { client(c: Caller): Client };

let n = 0;

/**
 * Creates one account per caller kind: Ada (administrator), Mo (moderator), Mel (member), Gus
 * (guest), a bot owned by Mel, Dee (a member deactivated through the action, as an administrator
 * does) and, unless `opts.owner` names one (`{ owner: ts.owner }`: the founder), a second owner
 * Owen, so the founder stays untouched.
 */
export async function castOf(ts: TestServer, opts: { owner?: Account } = {}): Promise<Cast> {
  const tag = ++n;
  const owner = opts.owner ?? (await ts.addUser('Owen', 100));
  const admin = await ts.addUser('Ada', 200);
  const moderator = await ts.addUser('Mo', 300);
  const member = await ts.addUser('Mel', 400);
  const guest = await ts.addUser('Gus', 600);
  const b = await doCreateUser(ts.app, {
    email: `robot${tag}-bot@example.com`,
    fullName: `Robot ${tag}`,
    password: null,
    role: 400,
    bot: { type: 1, ownerId: member.id },
  });
  const bot = { id: b.id, email: b.email, apiKey: b.api_key, password: owner.password };
  const deactivated = await ts.addUser('Dee', 400);
  await doDeactivateUser(ts.app, ts.store.users.get(deactivated.id)!);
  const accounts = { owner, admin, moderator, member, guest, bot, deactivated };
  return { ...accounts, client: (c) => (c === 'anonymous' ? ts.anonymous : ts.client(accounts[c])) };
}

/** A system group's ID by name (`role:members`). */
export function groupId(ts: TestServer, name: string): number {
  const g = ts.store.groups.data.groups.find((x) => x.is_system_group && x.name === name);
  assert.ok(g, name);
  return g.id;
}
