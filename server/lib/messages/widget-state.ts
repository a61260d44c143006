/**
 * A widget's state, replayed from its message's submessages as Zulip's clients replay them
 * (web/shared/src/poll_data.ts, web/src/todo_widget.ts), and the check of a new widget event:
 * Zulip's validate_poll_data / validate_todo_data (same messages), then Hearth's bounds against the
 * state (an option or task that exists, no duplicates, WIDGET_LIMITS).
 */
import { errors } from '../../errors.js';
import type { MessageRecord, SubmessageRecord } from '../../store/message-records.js';
import { checkWidgetText, fmt, WIDGET_LIMITS } from './widgets.js';

export interface PollOption {
  option: string;
  voters: Set<number>;
}
export interface PollState {
  widget_type: 'poll';
  question: string;
  /** By key (`canned,<i>` or `<sender>,<idx>`), in the order added. */
  options: Map<string, PollOption>;
}
export interface TodoTask {
  task: string;
  desc: string;
  completed: boolean;
}
export interface TodoState {
  widget_type: 'todo';
  title: string;
  /** By key (`<i>,canned` or `<idx>,<sender>`), in the order added. */
  tasks: Map<string, TodoTask>;
}
/** Another widget (zform), or a widget Hearth cannot read. */
export interface OtherWidget {
  widget_type: string;
}
export type WidgetState = PollState | TodoState | OtherWidget;

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parse(s: SubmessageRecord): unknown {
  try {
    return JSON.parse(s.content);
  } catch {
    return null;
  }
}

/** The message's widget submessage (Zulip's get_widget_type looks at the first "widget" one). */
/** What a widget's state is made from (a stored message, or an export's copy of one). */
export type WidgetMessage = Pick<MessageRecord, 'sender_id' | 'submessages'>;

export const widgetSubmessage = (m: WidgetMessage): SubmessageRecord | undefined =>
  m.submessages?.find((s) => s.msg_type === 'widget');

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function addOption(p: PollState, key: string, option: string): void {
  // Later duplicates of an option's text are ignored (a `/poll` may repeat a line).
  for (const o of p.options.values()) if (o.option === option) return;
  p.options.set(key, { option, voters: new Set() });
}

function addTask(t: TodoState, key: string, task: string, desc: string, completed: boolean): void {
  for (const x of t.tasks.values()) if (x.task === task) return;
  t.tasks.set(key, { task, desc, completed });
}

function applyPoll(p: PollState, senderId: number, authorId: number, d: Record<string, unknown>): void {
  if (d.type === 'new_option' && typeof d.option === 'string' && Number.isInteger(d.idx)) {
    addOption(p, `${senderId},${d.idx as number}`, d.option);
  } else if (d.type === 'vote' && typeof d.key === 'string') {
    const o = p.options.get(d.key);
    if (o && d.vote === 1) o.voters.add(senderId);
    else if (o && d.vote === -1) o.voters.delete(senderId);
  } else if (d.type === 'question' && typeof d.question === 'string' && senderId === authorId) {
    p.question = d.question;
  }
}

function applyTodo(t: TodoState, senderId: number, authorId: number, d: Record<string, unknown>): void {
  if (d.type === 'new_task' && typeof d.task === 'string' && Number.isInteger(d.key)) {
    addTask(t, `${d.key as number},${senderId}`, d.task, typeof d.desc === 'string' ? d.desc : '', d.completed === true);
  } else if (d.type === 'strike' && typeof d.key === 'string') {
    const x = t.tasks.get(d.key);
    if (x) x.completed = !x.completed;
  } else if (d.type === 'new_task_list_title' && typeof d.title === 'string' && senderId === authorId) {
    t.title = d.title;
  }
}

/** The message's widget and what its events made of it; null when it has no widget. */
export function widgetState(m: WidgetMessage): WidgetState | null {
  const w = widgetSubmessage(m);
  if (!w) return null;
  const content = parse(w);
  if (!isDict(content) || typeof content.widget_type !== 'string') return { widget_type: 'unknown' };
  const extra = isDict(content.extra_data) ? content.extra_data : {};
  let state: PollState | TodoState;
  if (content.widget_type === 'poll') {
    state = { widget_type: 'poll', question: typeof extra.question === 'string' ? extra.question : '', options: new Map() };
    strings(extra.options).forEach((o, i) => addOption(state as PollState, `canned,${i}`, o));
  } else if (content.widget_type === 'todo') {
    state = { widget_type: 'todo', title: typeof extra.task_list_title === 'string' ? extra.task_list_title : '', tasks: new Map() };
    const tasks = Array.isArray(extra.tasks) ? extra.tasks : [];
    tasks.forEach((x, i) => {
      if (isDict(x) && typeof x.task === 'string') {
        addTask(state as TodoState, `${i},canned`, x.task, typeof x.desc === 'string' ? x.desc : '', false);
      }
    });
  } else {
    return { widget_type: content.widget_type };
  }
  for (const s of m.submessages ?? []) {
    if (s === w || s.msg_type !== 'widget') continue;
    const d = parse(s);
    if (!isDict(d)) continue;
    if (state.widget_type === 'poll') applyPoll(state, s.sender_id, m.sender_id, d);
    else applyTodo(state, s.sender_id, m.sender_id, d);
  }
  return state;
}

// ------------------------------------------------------------ Zulip's validators (zerver/lib/validator.py)

type Check = (varName: string, v: unknown) => void;

const checkString: Check = (n, v) => {
  if (typeof v !== 'string') throw errors.badRequest(`${n} is not a string`);
};
const checkBool: Check = (n, v) => {
  if (typeof v !== 'boolean') throw errors.badRequest(`${n} is not a boolean`);
};
const checkInt: Check = (n, v) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw errors.badRequest(`${n} is not an integer`);
};
const checkIntRange =
  (low: number, high: number): Check =>
  (n, v) => {
    checkInt(n, v);
    if ((v as number) < low) throw errors.badRequest(`${n} is too small`);
    if ((v as number) > high) throw errors.badRequest(`${n} is too large`);
  };
const checkVote: Check = (n, v) => {
  checkInt(n, v);
  if (v !== 1 && v !== -1) throw errors.badRequest(`Invalid ${n}`);
};

/** check_dict_only: these keys, each valid, and no others. */
function checkDictOnly(varName: string, d: Record<string, unknown>, keys: [string, Check][]): void {
  for (const [k, check] of keys) {
    if (!(k in d)) throw errors.badRequest(`${k} key is missing from ${varName}`);
    check(`${varName}["${k}"]`, d[k]);
  }
  const extra = Object.keys(d).filter((k) => !keys.some(([name]) => name === k));
  if (extra.length) throw errors.badRequest(`Unexpected arguments: ${extra.join(', ')}`);
}

/** check_dict([("type", check_string)]): the event's type. */
function eventType(varName: string, d: unknown): Record<string, unknown> & { type: string } {
  if (!isDict(d)) throw errors.badRequest(`${varName} is not a dict`);
  if (!('type' in d)) throw errors.badRequest(`type key is missing from ${varName}`);
  checkString(`${varName}["type"]`, d.type);
  return d as Record<string, unknown> & { type: string };
}

const checkItemCount = (n: number, what: string) => {
  if (n >= WIDGET_LIMITS.items) throw errors.badRequest(`${what} can have at most ${WIDGET_LIMITS.items} ${what === 'A poll' ? 'options' : 'tasks'}.`);
};

function checkPollEvent(p: PollState, data: unknown, senderId: number, isAuthor: boolean): void {
  const d = eventType('poll data', data);
  const v = 'poll data';
  if (d.type === 'vote') {
    checkDictOnly(v, d, [['type', checkString], ['key', checkString], ['vote', checkVote]]);
    if (!p.options.has(d.key as string)) throw errors.badRequest(`This poll has no option with key "${d.key as string}".`);
  } else if (d.type === 'question') {
    if (!isAuthor) throw errors.badRequest("You can't edit a question unless you are the author.");
    checkDictOnly(v, d, [['type', checkString], ['question', checkString]]);
    checkWidgetText('A poll question', d.question as string);
  } else if (d.type === 'new_option') {
    checkDictOnly(v, d, [['type', checkString], ['option', checkString], ['idx', checkIntRange(0, WIDGET_LIMITS.maxIdx)]]);
    const option = d.option as string;
    if (option.trim() === '') throw errors.badRequest('A poll option must not be empty.');
    checkWidgetText('A poll option', option);
    if (p.options.has(`${senderId},${d.idx as number}`)) throw errors.badRequest('This option key is already used.');
    for (const o of p.options.values()) if (o.option === option) throw errors.badRequest('This option is already in the poll.');
    checkItemCount(p.options.size, 'A poll');
  } else {
    throw errors.badRequest(`Unknown type for poll data: ${d.type}`);
  }
}

function checkTodoEvent(t: TodoState, data: unknown, senderId: number, isAuthor: boolean): void {
  const d = eventType('todo data', data);
  const v = 'todo data';
  if (d.type === 'new_task') {
    checkDictOnly(v, d, [
      ['type', checkString],
      ['key', checkIntRange(0, WIDGET_LIMITS.maxIdx)],
      ['task', checkString],
      ['desc', checkString],
      ['completed', checkBool],
    ]);
    const task = d.task as string;
    if (task.trim() === '') throw errors.badRequest('A task must not be empty.');
    checkWidgetText('A task', task);
    checkWidgetText("A task's description", d.desc as string);
    if (t.tasks.has(`${d.key as number},${senderId}`)) throw errors.badRequest('This task key is already used.');
    for (const x of t.tasks.values()) if (x.task === task) throw errors.badRequest('This task is already in the list.');
    checkItemCount(t.tasks.size, 'A to-do list');
  } else if (d.type === 'strike') {
    checkDictOnly(v, d, [['type', checkString], ['key', checkString]]);
    if (!t.tasks.has(d.key as string)) throw errors.badRequest(`This to-do list has no task with key "${d.key as string}".`);
  } else if (d.type === 'new_task_list_title') {
    if (!isAuthor) throw errors.badRequest("You can't edit the task list title unless you are the author.");
    checkDictOnly(v, d, [['type', checkString], ['title', checkString]]);
    checkWidgetText('A to-do list title', d.title as string);
  } else {
    throw errors.badRequest(`Unknown type for todo data: ${d.type}`);
  }
}

/**
 * Checks a widget event (`content`, parsed) from `senderId` against the message's widget: Zulip's
 * validation, then Hearth's. Throws HearthError (400) with the reason.
 */
export function checkWidgetEvent(m: MessageRecord, data: unknown, senderId: number): void {
  const state = widgetState(m);
  if (!state) throw errors.badRequest('This message has no widget.');
  if (isDict(data) && 'widget_type' in data) throw errors.badRequest('This message already has a widget.');
  const isAuthor = m.sender_id === senderId;
  if (state.widget_type === 'poll') checkPollEvent(state as PollState, data, senderId, isAuthor);
  else if (state.widget_type === 'todo') checkTodoEvent(state as TodoState, data, senderId, isAuthor);
  else throw errors.badRequest('This widget does not accept submessages.');
  if ((m.submessages?.length ?? 0) >= WIDGET_LIMITS.submessages) {
    throw errors.badRequest(`This widget has reached its limit of ${fmt(WIDGET_LIMITS.submessages)} changes.`);
  }
  let total = JSON.stringify(data).length;
  for (const s of m.submessages ?? []) total += s.content.length;
  if (total > WIDGET_LIMITS.contentTotal) {
    throw errors.badRequest(`This widget has reached its limit of ${fmt(WIDGET_LIMITS.contentTotal)} characters of changes.`);
  }
}
