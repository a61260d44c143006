/** Polls and to-do lists from submessages (renderer/chat/widgets/widgets.ts), as Zulip's poll_data and todo_widget read them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  pollMessage,
  pollNewOption,
  pollVote,
  todoMessage,
  todoNewTask,
  widgetOf,
  withSubmessage,
  type PollState,
  type Submessage,
  type TodoState,
} from '../../renderer/chat/widgets/widgets.js';

const AUTHOR = 10;
const MEL = 11;
const SAM = 12;

/** Submessages numbered from 1: the widget by the author, then `[sender, data]` events. */
function subs(widget: unknown, ...events: [number, unknown][]): Submessage[] {
  const all: [number, unknown][] = [[AUTHOR, widget], ...events];
  return all.map(([sender, data], i) => ({ id: i + 1, message_id: 99, sender_id: sender, msg_type: 'widget', content: JSON.stringify(data) }));
}

const poll = (s: Submessage[], self = AUTHOR) => widgetOf(AUTHOR, s, self) as PollState;
const todo = (s: Submessage[], self = AUTHOR) => widgetOf(AUTHOR, s, self) as TodoState;
const lunch = { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup'] } };
const release = { widget_type: 'todo', extra_data: { task_list_title: 'Release', tasks: [{ task: 'Tag', desc: 'v1.2' }, { task: 'Announce', desc: '' }] } };

describe('poll state', () => {
  it('starts from the message’s question and options, keyed "canned,<n>"', () => {
    const p = poll(subs(lunch));
    assert.equal(p.kind, 'poll');
    assert.equal(p.question, 'Lunch?');
    assert.deepEqual(
      p.options.map((o) => [o.key, o.option, o.voters]),
      [
        ['canned,0', 'Pizza', []],
        ['canned,1', 'Soup', []],
      ],
    );
    assert.equal(p.nextIdx, 1);
  });

  it('adds options keyed "<sender>,<idx>" in order, dropping a repeated text', () => {
    const p = poll(subs(lunch, [MEL, pollNewOption(1, 'Tacos')], [SAM, pollNewOption(1, 'Pizza')], [SAM, pollNewOption(2, 'Salad')]));
    assert.deepEqual(
      p.options.map((o) => o.key),
      ['canned,0', 'canned,1', `${MEL},1`, `${SAM},2`],
    );
  });

  it('votes add and take back, once per person, in voting order; unknown keys and bad votes are skipped', () => {
    const p = poll(
      subs(
        lunch,
        [MEL, { type: 'vote', key: 'canned,0', vote: 1 }],
        [SAM, { type: 'vote', key: 'canned,0', vote: 1 }],
        [MEL, { type: 'vote', key: 'canned,0', vote: 1 }],
        [SAM, { type: 'vote', key: 'canned,1', vote: 1 }],
        [SAM, { type: 'vote', key: 'canned,1', vote: -1 }],
        [MEL, { type: 'vote', key: 'nope,1', vote: 1 }],
        [MEL, { type: 'vote', key: 'canned,1', vote: 2 }],
      ),
    );
    assert.deepEqual(p.options[0]!.voters, [MEL, SAM]);
    assert.deepEqual(p.options[1]!.voters, []);
  });

  it('only the author changes the question', () => {
    const p = poll(subs(lunch, [MEL, { type: 'question', question: 'Hijacked' }], [AUTHOR, { type: 'question', question: 'Dinner?' }]));
    assert.equal(p.question, 'Dinner?');
    assert.equal(poll(subs(lunch, [MEL, { type: 'question', question: 'Hijacked' }])).question, 'Lunch?');
  });

  it('a vote toggles: -1 when one has voted, else 1', () => {
    const p = poll(subs(lunch, [MEL, { type: 'vote', key: 'canned,0', vote: 1 }]), MEL);
    assert.deepEqual(pollVote(p, 'canned,0', MEL), { type: 'vote', key: 'canned,0', vote: -1 });
    assert.deepEqual(pollVote(p, 'canned,1', MEL), { type: 'vote', key: 'canned,1', vote: 1 });
  });

  it('one’s next option idx goes past every one of one’s own (other devices too)', () => {
    const s = subs(lunch, [MEL, pollNewOption(1, 'A')], [MEL, pollNewOption(5, 'B')], [SAM, pollNewOption(9, 'C')]);
    assert.equal(poll(s, MEL).nextIdx, 6);
    assert.equal(poll(s, SAM).nextIdx, 10);
    assert.equal(poll(s, AUTHOR).nextIdx, 1);
  });

  it('idx out of 0..1000 is skipped', () => {
    const p = poll(subs(lunch, [MEL, pollNewOption(1001, 'Far')], [MEL, pollNewOption(-1, 'Neg')]));
    assert.equal(p.options.length, 2);
  });
});

describe('to-do state', () => {
  it('starts from the title and tasks, keyed "<n>,canned" (idx first), none done', () => {
    const t = todo(subs(release));
    assert.equal(t.title, 'Release');
    assert.deepEqual(
      t.tasks.map((x) => [x.key, x.task, x.desc, x.completed]),
      [
        ['0,canned', 'Tag', 'v1.2', false],
        ['1,canned', 'Announce', '', false],
      ],
    );
  });

  it('an untitled list is called "Task list"', () => {
    assert.equal(todo(subs({ widget_type: 'todo', extra_data: { task_list_title: '', tasks: [] } })).title, 'Task list');
  });

  it('new tasks are keyed "<idx>,<sender>"; a repeated name is dropped; strike toggles', () => {
    const t = todo(
      subs(
        release,
        [MEL, todoNewTask(2, 'Blog', 'post it')],
        [SAM, todoNewTask(2, 'Tag', '')],
        [SAM, { type: 'strike', key: '0,canned' }],
        [MEL, { type: 'strike', key: `2,${MEL}` }],
        [MEL, { type: 'strike', key: `2,${MEL}` }],
        [MEL, { type: 'strike', key: 'no,such' }],
      ),
    );
    assert.deepEqual(
      t.tasks.map((x) => [x.key, x.completed]),
      [
        ['0,canned', true],
        ['1,canned', false],
        [`2,${MEL}`, false],
      ],
    );
  });

  it('only the author changes the title', () => {
    const s = subs(release, [MEL, { type: 'new_task_list_title', title: 'Mine' }], [AUTHOR, { type: 'new_task_list_title', title: 'Release 2' }]);
    assert.equal(todo(s).title, 'Release 2');
    assert.equal(todo(s.slice(0, 2)).title, 'Release');
  });

  it('one’s next task key follows Zulip’s my_idx (starts at 2, past one’s own)', () => {
    assert.equal(todo(subs(release), MEL).nextIdx, 2);
    assert.equal(todo(subs(release, [MEL, todoNewTask(2, 'A', '')]), MEL).nextIdx, 4);
  });

  it('a malformed new_task is skipped', () => {
    const t = todo(subs(release, [MEL, { type: 'new_task', key: '3', task: 'X', desc: '', completed: false }], [MEL, { type: 'new_task', key: 3, task: 'Y' }]));
    assert.equal(t.tasks.length, 2);
  });
});

describe('which messages are widgets', () => {
  it('none without submessages, or when the widget is not the author’s, or of another type', () => {
    assert.equal(widgetOf(AUTHOR, undefined, AUTHOR), null);
    assert.equal(widgetOf(AUTHOR, [], AUTHOR), null);
    const hijack = [{ id: 1, message_id: 99, sender_id: MEL, msg_type: 'widget', content: JSON.stringify(lunch) }];
    assert.equal(widgetOf(AUTHOR, hijack, AUTHOR), null);
    assert.equal(widgetOf(AUTHOR, subs({ widget_type: 'zform', extra_data: {} }), AUTHOR), null);
    assert.equal(widgetOf(AUTHOR, [{ ...subs(lunch)[0]!, content: 'not json' }], AUTHOR), null);
  });

  it('orders by submessage ID and counts each once, whatever order they came in', () => {
    const s = subs(lunch, [MEL, { type: 'vote', key: 'canned,0', vote: 1 }], [MEL, { type: 'vote', key: 'canned,0', vote: -1 }]);
    const shuffled = [s[2]!, s[0]!, s[1]!, s[2]!];
    assert.deepEqual(poll(shuffled).options[0]!.voters, []);
  });

  it('withSubmessage adds once, in ID order', () => {
    const [a, b, c] = subs(lunch, [MEL, 1], [MEL, 2]);
    assert.deepEqual(
      withSubmessage(withSubmessage([a!, c!], b!), b!).map((x) => x.id),
      [1, 2, 3],
    );
  });
});

describe('compose dialogs’ text (Zulip’s framing)', () => {
  it('a poll: /poll question, then one option a line, blanks left out', () => {
    assert.equal(pollMessage(' Lunch? ', ['Pizza', '', ' Soup ']), '/poll Lunch?\nPizza\nSoup');
  });
  it('a to-do list: /todo title (or "Task list"), then task: description lines', () => {
    assert.equal(
      todoMessage('', [
        { task: 'Tag', desc: 'v1.2' },
        { task: ' ', desc: '' },
        { task: 'Announce', desc: '' },
      ]),
      '/todo Task list\nTag: v1.2\nAnnounce',
    );
  });
});
