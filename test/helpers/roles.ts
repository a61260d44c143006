/**
 * The eight callers of the role matrices: owner, administrator, moderator,
 * member, guest, bot, deactivated user and anonymous.
 */
import { doCreateUser } from '../../server/actions/users.js';
import { doDeactivateUser } from '../../server/actions/users-activation.js';
import type { Account, Client, TestServer } from './server.js';

export type Caller = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot' | 'deactivated' | 'anonymous';
export const CALLERS: Caller[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot', 'deactivated', 'anonymous'];

export interface Cast {
  accounts: Record<Exclude<Caller, 'anonymous'>, Account>;
  client(c: Caller): Client;
}

let n = 0;

/** Creates one account per caller kind (a second owner, so the founder stays untouched). */
export async function castOf(ts: TestServer): Promise<Cast> {
  const password = 'correct horse battery';
  const tag = ++n;
  const owner = await ts.addUser(`Owen${tag}`, 100);
  const admin = await ts.addUser(`Ada${tag}`, 200);
  const moderator = await ts.addUser(`Moe${tag}`, 300);
  const member = await ts.addUser(`Mel${tag}`, 400);
  const guest = await ts.addUser(`Gus${tag}`, 600);
  const b = await doCreateUser(ts.app, {
    email: `robot${tag}-bot@example.com`,
    fullName: `Robot ${tag}`,
    password: null,
    role: 400,
    bot: { type: 1, ownerId: member.id },
  });
  const bot = { id: b.id, email: b.email, apiKey: b.api_key, password };
  const deactivated = await ts.addUser(`Dee${tag}`, 400);
  await doDeactivateUser(ts.app, ts.store.users.get(deactivated.id)!);
  const accounts = { owner, admin, moderator, member, guest, bot, deactivated };
  return {
    accounts,
    client: (c) => (c === 'anonymous' ? ts.anonymous : ts.client(accounts[c])),
  };
}
