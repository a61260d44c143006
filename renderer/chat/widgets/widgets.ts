/**
 * Polls and to-do lists (Zulip's widgets): a message's submessages read into what its widget shows,
 * and the widget events a click sends (`POST /submessage`). Pure functions, no store: the view
 * (Widget.tsx) derives the state again from the message each time its submessages change.
 *
 * Zulip's protocol: the first submessage (by ID), from the message's sender, is
 * `{"widget_type": "poll"|"todo", "extra_data": {...}}`; each later one is an event, applied in ID
 * order. Poll: `new_option` (key `"<sender>,<idx>"`, the message's own options `"canned,<n>"`; an
 * option whose text is already there is dropped), `vote` (1 or -1, on a known key), `question` (the
 * poll's author only). To-do: `new_task` (key `"<idx>,<sender>"`, the message's own tasks
 * `"<n>,canned"`; a task whose name is already there is dropped), `strike` (toggles a known task),
 * `new_task_list_title` (the author only). Anything else, or malformed, is skipped; the same
 * submessage twice counts once.
 */
import type { Submessage } from '../../../server/protocol/message.js';

export type { Submessage };

export interface PollOption {
  key: string;
  option: string;
  /** Who votes for it, in the order they voted. */
  voters: number[];
}

export interface PollState {
  kind: 'poll';
  question: string;
  options: PollOption[];
  /** The idx this person's next new option takes (Zulip's my_idx). */
  nextIdx: number;
}

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  kind: 'todo';
  title: string;
  tasks: TodoTask[];
  /** The key this person's next new task takes (Zulip's my_idx, plus one as its outbound adds). */
  nextIdx: number;
}

export type WidgetState = PollState | TodoState;

/** Zulip's bound on the idx one person gives options or tasks. */
export const MAX_IDX = 1000;

/** To-do lists without a title are called this (as Zulip's). */
export const DEFAULT_TODO_TITLE = 'Task list';

type Data = Record<string, unknown>;

const isRecord = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIdx = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_IDX;

function parse(content: string): Data | null {
  try {
    const v: unknown = JSON.parse(content);
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}

/** The widget a message carries, from its submessages; null when it has none (or one this client does not show). */
export function widgetOf(senderId: number, submessages: readonly Submessage[] | undefined, selfId: number): WidgetState | null {
  if (!submessages?.length) return null;
  const seen = new Set<number>();
  const sorted = [...submessages].sort((a, b) => a.id - b.id).filter((s) => !seen.has(s.id) && seen.add(s.id));
  const [first, ...rest] = sorted;
  // The widget itself must come from the message's author (anyone else's would hijack it).
  if (!first || first.msg_type !== 'widget' || first.sender_id !== senderId) return null;
  const head = parse(first.content);
  if (!head) return null;
  const extra = isRecord(head.extra_data) ? head.extra_data : {};
  const events = rest.filter((s) => s.msg_type === 'widget').map((s) => ({ sender: s.sender_id, data: parse(s.content) }));
  if (head.widget_type === 'poll') return pollOf(senderId, extra, events, selfId);
  if (head.widget_type === 'todo') return todoOf(senderId, extra, events, selfId);
  return null;
}

type Ev = { sender: number; data: Data | null };

function pollOf(author: number, extra: Data, events: Ev[], selfId: number): PollState {
  let question = typeof extra.question === 'string' ? extra.question : '';
  const options = new Map<string, { option: string; votes: Map<number, true> }>();
  let nextIdx = 1;
  const addOption = (key: string, option: string) => {
    for (const o of options.values()) if (o.option === option) return;
    options.set(key, { option, votes: new Map() });
  };
  const canned = Array.isArray(extra.options) ? extra.options : [];
  canned.forEach((o, i) => typeof o === 'string' && addOption(`canned,${i}`, o));
  for (const { sender, data } of events) {
    if (!data) continue;
    if (data.type === 'new_option' && typeof data.option === 'string' && typeof data.idx === 'number') {
      // The next idx of mine goes past every one of mine seen (other devices too), so keys never collide.
      if (sender === selfId && Number.isInteger(data.idx) && nextIdx <= data.idx) nextIdx = data.idx + 1;
      if (isIdx(data.idx)) addOption(`${sender},${data.idx}`, data.option);
    } else if (data.type === 'vote' && typeof data.key === 'string' && (data.vote === 1 || data.vote === -1)) {
      const o = options.get(data.key);
      if (!o) continue;
      if (data.vote === 1) o.votes.set(sender, true);
      else o.votes.delete(sender);
    } else if (data.type === 'question' && typeof data.question === 'string' && sender === author) {
      question = data.question;
    }
  }
  return {
    kind: 'poll',
    question,
    options: [...options].map(([key, o]) => ({ key, option: o.option, voters: [...o.votes.keys()] })),
    nextIdx,
  };
}

function todoOf(author: number, extra: Data, events: Ev[], selfId: number): TodoState {
  let title = typeof extra.task_list_title === 'string' && extra.task_list_title ? extra.task_list_title : DEFAULT_TODO_TITLE;
  const tasks = new Map<string, TodoTask>();
  let myIdx = 1;
  const addTask = (key: string, task: string, desc: string, completed: boolean) => {
    for (const t of tasks.values()) if (t.task === task) return;
    tasks.set(key, { key, task, desc, completed });
  };
  const canned = Array.isArray(extra.tasks) ? extra.tasks : [];
  canned.forEach((t, i) => {
    if (isRecord(t) && typeof t.task === 'string') addTask(`${i},canned`, t.task, typeof t.desc === 'string' ? t.desc : '', false);
  });
  for (const { sender, data } of events) {
    if (!data) continue;
    if (data.type === 'new_task') {
      if (!isIdx(data.key) || typeof data.task !== 'string' || typeof data.desc !== 'string' || typeof data.completed !== 'boolean') continue;
      addTask(`${data.key},${sender}`, data.task, data.desc, data.completed);
      if (sender === selfId && myIdx <= data.key) myIdx = data.key + 1;
    } else if (data.type === 'strike' && typeof data.key === 'string') {
      const t = tasks.get(data.key);
      if (t) tasks.set(data.key, { ...t, completed: !t.completed });
    } else if (data.type === 'new_task_list_title' && typeof data.title === 'string' && sender === author) {
      title = data.title;
    }
  }
  return { kind: 'todo', title, tasks: [...tasks.values()], nextIdx: myIdx + 1 };
}

/** Whether a poll already has an option with this text (Zulip drops a second one). */
export const hasOption = (p: PollState, option: string) => p.options.some((o) => o.option === option);

/** Whether a to-do list already has a task with this name (Zulip drops a second one). */
export const hasTask = (t: TodoState, task: string) => t.tasks.some((x) => x.task === task);

/** The events a person's clicks send (the submessage's content, before JSON). */
export const pollVote = (p: PollState, key: string, selfId: number) => ({
  type: 'vote',
  key,
  vote: p.options.find((o) => o.key === key)?.voters.includes(selfId) ? -1 : 1,
});
export const pollNewOption = (idx: number, option: string) => ({ type: 'new_option', idx, option });
export const pollQuestion = (question: string) => ({ type: 'question', question });
export const todoNewTask = (idx: number, task: string, desc: string) => ({ type: 'new_task', key: idx, task, desc, completed: false });
export const todoStrike = (key: string) => ({ type: 'strike', key });
export const todoTitle = (title: string) => ({ type: 'new_task_list_title', title });

/**
 * The message text compose's dialogs make, as Zulip's web app frames it: `/poll Question` then one
 * option a line; `/todo Title` (Zulip's default title when none) then one task a line, `task: description`.
 */
export function pollMessage(question: string, options: string[]): string {
  return `/poll ${question.trim()}\n${options.map((o) => o.trim()).filter(Boolean).join('\n')}`;
}

export function todoMessage(title: string, tasks: { task: string; desc: string }[]): string {
  const lines = tasks
    .map((t) => ({ task: t.task.trim(), desc: t.desc.trim() }))
    .filter((t) => t.task)
    .map((t) => (t.desc ? `${t.task}: ${t.desc}` : t.task));
  return `/todo ${title.trim() || DEFAULT_TODO_TITLE}\n${lines.join('\n')}`;
}

/** Adds one submessage to a list (by ID, once, in ID order): a `submessage` event applied to a message. */
export function withSubmessage(list: readonly Submessage[] | undefined, s: Submessage): Submessage[] {
  const had = list ?? [];
  if (had.some((x) => x.id === s.id)) return [...had];
  return [...had, s].sort((a, b) => a.id - b.id);
}
