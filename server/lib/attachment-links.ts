import type { Transaction } from '../actions/commit.js';
import type { App } from '../context.js';

/**
 * PLACEHOLDER until the uploads work lands; keep the signature. Called by the
 * messages area inside a send or edit transaction: message `messageId`, sent by
 * `senderId`, links these `/user_uploads/...` paths (the sender's own uploads
 * become attached to it, as in Zulip's do_claim_attachments).
 */
export function claimAttachments(
  _app: App,
  _tx: Transaction,
  _senderId: number,
  _messageId: number,
  _paths: string[],
): void {}

/** Called inside a message deletion transaction. */
export function releaseAttachments(_app: App, _tx: Transaction, _messageIds: number[]): void {}
