/** The `realm_bot` update event, shared by the bot and user actions (users-update.ts renames bots too). */
import type { App } from '../context.js';
import { botAdminIds } from '../lib/people/bots.js';
import type { UserRecord } from '../store/records.js';
import type { Transaction } from './commit.js';

/** `realm_bot` update of some fields, to the users who administer the bot. */
export const emitBotUpdate = (app: App, tx: Transaction, bot: UserRecord, fields: Record<string, unknown>) =>
  tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } }, botAdminIds(app, bot));
