import type { App } from '../context.js';
import { formatDraft, type DraftInput } from '../lib/messages/drafts.js';
import type { DraftRecord } from '../store/records.js';
import { commit } from './commit.js';


export async function doCreateDrafts(app: App, userId: number, inputs: DraftInput[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  return commit(app, (tx) => {
    const doc = app.store.drafts.data;
    const created = inputs.map((input) => {
      const d: DraftRecord = { id: doc.nextId++, user_id: userId, ...input };
      doc.drafts.push(d);
      return d;
    });
    tx.touch(app.store.drafts);
    tx.emit({ type: 'drafts', op: 'add', drafts: created.map(formatDraft) }, [userId]);
    return created.map((d) => d.id);
  });
}

export async function doEditDraft(app: App, draft: DraftRecord, input: DraftInput): Promise<void> {
  await commit(app, (tx) => {
    Object.assign(draft, input);
    tx.touch(app.store.drafts);
    tx.emit({ type: 'drafts', op: 'update', draft: formatDraft(draft) }, [draft.user_id]);
  });
}

export async function doDeleteDraft(app: App, draft: DraftRecord): Promise<void> {
  await commit(app, (tx) => {
    const list = app.store.drafts.data.drafts;
    const idx = list.indexOf(draft);
    if (idx >= 0) list.splice(idx, 1);
    tx.touch(app.store.drafts);
    tx.emit({ type: 'drafts', op: 'remove', draft_id: draft.id }, [draft.user_id]);
  });
}

