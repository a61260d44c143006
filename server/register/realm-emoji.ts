/**
 * The `realm_emoji` register key and events. Actions emit one internal event
 * per change carrying the whole emoji map (RealmEmojiChangeEvent); each queue gets Zulip's form:
 * with the `individual_emoji_changes` capability (Zulip 12.0, feature level
 * 491) `add` with the new `emoji`, or `update_one` with `emoji_id` and the
 * changed `data`; otherwise the legacy `update` with every emoji.
 *
 * Zulip's API notes call the change event `edit` (as does Hearth's spec)
 * while Zulip sends `update_one`: capable queues get both, with the same
 * idempotent data, so a client that knows either name applies it and one that
 * knows both applies it twice to the same effect.
 */
import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';
import { realmEmojiDict } from '../lib/emoji/custom.js';

const realmEmojiSection: StateSection = {
  wants: ['realm_emoji'],
  fetch: ({ app }) => ({ realm_emoji: realmEmojiDict(app) }),
};

export const sections = [realmEmojiSection];

export function filters(app: App): void {
  app.events.addFilter('realm_emoji', (queue, event) => {
    const { all, ...individual } = event;
    if (queue.capability('individual_emoji_changes')) return individual;
    if (individual.op === 'edit') return null;
    return { type: 'realm_emoji', op: 'update', realm_emoji: all };
  });
}
