/**
 * Where the compose box sends, from what its To line holds (ComposeTo.tsx): the typing target (null
 * while nobody or no channel is picked) and the draft's address. In a direct message view with
 * nobody picked, the message goes to oneself, as Zulip's does.
 */
import type { Address } from './ComposeTo.js';
import type { DraftAddress } from './draft-sync.js';
import { store } from '../store/state.js';
import type { TypingTarget } from './typing.js';

export function targetOf(a: Address, fixedPeople: number[] | null): TypingTarget | null {
  if (a.mode === 'channel') return a.channel ? { kind: 'channel', streamId: a.channel, topic: a.topic } : null;
  if (a.people.length) return { kind: 'dm', to: a.people };
  return fixedPeople ? { kind: 'dm', to: [store.selfId.value] } : null;
}

export function draftAddressOf(a: Address, fixedPeople: number[] | null): DraftAddress {
  if (a.mode === 'channel') return a.channel ? { type: 'stream', to: [a.channel], topic: a.topic } : { type: '', to: [], topic: '' };
  const to = a.people.length ? a.people : fixedPeople ? [store.selfId.value] : [];
  return to.length ? { type: 'private', to, topic: '' } : { type: '', to: [], topic: '' };
}
