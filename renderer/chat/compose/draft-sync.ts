/**
 * Drafts kept on the server (`/drafts`), so they survive a reload and reach the person's
 * other browsers: the compose box saves what is typed a moment after typing stops
 * (`POST` the first time, then `PATCH` the same draft), deletes it when the message is
 * sent or emptied, and restores the newest draft of a conversation when it is reopened.
 * As in Zulip, fewer than three characters are not worth a draft.
 */
import { signal } from '@preact/signals';
import { ApiError, del, patch, post } from '../store/api.js';
import type { View } from '../store/narrow.js';
import { store, type Draft } from '../store/state.js';

export type DraftAddress = Pick<Draft, 'type' | 'to' | 'topic'>;

const SAVE_AFTER_MS = 800;
const MIN_LENGTH = 3;

/** A draft the Drafts view asked the compose box to open. */
export const restoreRequest = signal<Draft | null>(null);

const sameTo = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The address of a conversation view (a topic or a direct conversation), else null. */
export function addressOfView(v: View): DraftAddress | null {
  if (v.kind === 'topic') return { type: 'stream', to: [v.streamId], topic: v.topic };
  if (v.kind === 'dm') return { type: 'private', to: v.userIds.length ? v.userIds : [store.selfId.value], topic: '' };
  return null;
}

/** Where a draft belongs: its conversation, or the combined feed when it has no address. */
export function viewOfDraft(d: DraftAddress): View {
  if (d.type === 'stream') return { kind: 'topic', streamId: d.to[0]!, topic: d.topic };
  if (d.type === 'private') return { kind: 'dm', userIds: d.to.filter((id) => id !== store.selfId.value) };
  return { kind: 'feed' };
}

/** The newest draft for a conversation. */
export function draftFor(a: DraftAddress): Draft | undefined {
  let best: Draft | undefined;
  for (const d of store.drafts.value.values()) {
    if (d.type !== a.type || !sameTo([...d.to].sort((x, y) => x - y), [...a.to].sort((x, y) => x - y))) continue;
    if (a.type === 'stream' && d.topic.toLowerCase() !== a.topic.toLowerCase()) continue;
    if (!best || d.timestamp > best.timestamp) best = d;
  }
  return best;
}

const signature = (a: DraftAddress, content: string) => JSON.stringify([a.type, a.to, a.topic, content]);

/**
 * One compose box's draft: changes are saved after a pause, one request at a time (a
 * `PATCH` never overtakes the `POST` that created the draft).
 */
export class DraftSaver {
  id: number | null = null;
  private saved = '';
  private pending: { address: DraftAddress; content: string } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();

  private enqueue(job: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(job).catch(() => undefined);
    return this.chain;
  }

  /** The text or its address changed: save it after a pause. */
  change(address: DraftAddress, content: string): void {
    if (signature(address, content) === this.saved && !this.pending) return;
    this.pending = { address, content };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), SAVE_AFTER_MS);
  }

  /** Saves now what waits to be saved. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const p = this.pending;
    this.pending = null;
    if (!p) return this.chain;
    return this.enqueue(() => this.write(p.address, p.content));
  }

  private async write(address: DraftAddress, content: string): Promise<void> {
    const sig = signature(address, content);
    if (sig === this.saved) return;
    if (content.trim().length < MIN_LENGTH) {
      this.saved = sig;
      return this.remove();
    }
    const draft = { ...address, content, timestamp: Math.floor(Date.now() / 1000) };
    if (this.id !== null) {
      try {
        await patch(`/drafts/${this.id}`, { draft });
        this.saved = sig;
        return;
      } catch (err) {
        // Deleted meanwhile (sent or removed in another browser): start a new one.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        this.id = null;
      }
    }
    const res = await post<{ ids: number[] }>('/drafts', { drafts: [draft] });
    this.id = res.ids[0] ?? null;
    this.saved = sig;
  }

  private async remove(): Promise<void> {
    const id = this.id;
    this.id = null;
    if (id !== null) await del(`/drafts/${id}`).catch(() => undefined);
  }

  /** The message was sent (or scheduled): its draft goes. */
  discard(): Promise<void> {
    clearTimeout(this.timer);
    this.pending = null;
    this.saved = '';
    return this.enqueue(() => this.remove());
  }

  /** Saves the current draft, then continues with another one (or a new one). */
  reset(next: Draft | null): void {
    void this.flush();
    void this.enqueue(async () => {
      this.id = next?.id ?? null;
      this.saved = next ? signature(next, next.content) : '';
    });
  }
}

/** Deletes a draft (the Drafts view). */
export const deleteDraft = (id: number) => del(`/drafts/${id}`);
