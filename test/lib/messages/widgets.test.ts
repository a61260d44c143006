/** Parsing `/poll` and `/todo` as Zulip's widget.py does, its json.dumps form, and replaying a widget's events. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonJson, widgetFromContent } from '../../../server/lib/messages/widgets.js';
import { widgetState, type PollState, type TodoState } from '../../../server/lib/messages/widget-state.js';
import { widgetText } from '../../../server/lib/messages/widget-text.js';

const sub = (id: number, sender_id: number, content: unknown) => ({ id, sender_id, msg_type: 'widget', content: JSON.stringify(content) });

describe('widgets at send time (Zulip widget.py)', () => {
  it('finds /poll and /todo only as the first word', () => {
    for (const c of ['', '     ', 'this is an ordinary message', '/bogus_command', '/me shrugs', 'use /poll', '/polls', ' /poll x']) {
      assert.equal(widgetFromContent(c), null, JSON.stringify(c));
    }
    assert.deepEqual(widgetFromContent('/poll'), { widget_type: 'poll', extra_data: { question: '', options: [] } });
    assert.deepEqual(widgetFromContent('/todo'), { widget_type: 'todo', extra_data: { task_list_title: '', tasks: [] } });
    // Any whitespace ends the first word, a no-break space and a tab included.
    assert.deepEqual(widgetFromContent('/poll\u00a0Q'), { widget_type: 'poll', extra_data: { question: 'Q', options: [] } });
    assert.deepEqual(widgetFromContent('/poll\tQ'), { widget_type: 'poll', extra_data: { question: 'Q', options: [] } });
  });

  it('takes the first line as the question, drops one list marker per option, skips blank lines, keeps duplicates', () => {
    assert.deepEqual(widgetFromContent('/poll  Q? \r\n - a\n*b\n  -  c  \n\n-\n**bold**\na\n'), {
      widget_type: 'poll',
      extra_data: { question: 'Q?', options: ['a', 'b', 'c', '*bold**', 'a'] },
    });
    // An empty first line: no question, every line after it an option.
    assert.deepEqual(widgetFromContent('/poll\nA\nB')!.extra_data, { question: '', options: ['A', 'B'] });
    // A first line of spaces is taken (and stripped to nothing).
    assert.deepEqual(widgetFromContent('/poll   \nA')!.extra_data, { question: '', options: ['A'] });
  });

  it("splits a task from its description at the first ': '", () => {
    assert.deepEqual(widgetFromContent('/todo T\nx: y: z\nhttp://a.example\n- k :v')!.extra_data, {
      task_list_title: 'T',
      tasks: [
        { task: 'x', desc: 'y: z' },
        { task: 'http://a.example', desc: '' },
        { task: 'k :v', desc: '' },
      ],
    });
  });

  it("writes JSON as Python's json.dumps", () => {
    assert.equal(pythonJson({ a: ['x', 1, true, null], 'é': 'ü😀\n"' }), '{"a": ["x", 1, true, null], "\\u00e9": "\\u00fc\\ud83d\\ude00\\n\\""}');
  });
});

describe('replaying a widget (Zulip poll_data.ts, todo_widget.ts)', () => {
  const poll = sub(1, 10, { widget_type: 'poll', extra_data: { question: 'Q', options: ['A', 'B', 'A'] } });

  it('poll: canned keys, later duplicates dropped, votes toggled, only the author renames', () => {
    const m = {
      sender_id: 10,
      submessages: [
        poll,
        sub(2, 11, { type: 'vote', key: 'canned,0', vote: 1 }),
        sub(3, 12, { type: 'new_option', idx: 1, option: 'C' }),
        sub(4, 12, { type: 'vote', key: '12,1', vote: 1 }),
        sub(5, 11, { type: 'vote', key: '12,1', vote: 1 }),
        sub(6, 11, { type: 'vote', key: 'canned,0', vote: -1 }),
        sub(7, 11, { type: 'question', question: 'Not yours' }),
        sub(8, 10, { type: 'question', question: 'Q2' }),
        { id: 9, sender_id: 11, msg_type: 'widget', content: 'not json' },
      ],
    };
    const s = widgetState(m) as PollState;
    assert.equal(s.question, 'Q2');
    assert.deepEqual([...s.options].map(([k, o]) => [k, o.option, [...o.voters]]), [
      ['canned,0', 'A', []],
      ['canned,1', 'B', []],
      ['12,1', 'C', [12, 11]],
    ]);
    assert.equal(widgetText(m, (id) => `U${id}`), '**Poll: Q2**\n- A: 0 votes\n- B: 0 votes\n- C: 2 votes (U12, U11)');
  });

  it('to-do: canned keys "<i>,canned", new tasks "<idx>,<sender>", strikes toggle', () => {
    const m = {
      sender_id: 10,
      submessages: [
        sub(1, 10, { widget_type: 'todo', extra_data: { task_list_title: '', tasks: [{ task: 'T', desc: 'd' }] } }),
        sub(2, 11, { type: 'new_task', key: 2, task: 'U', desc: '', completed: false }),
        sub(3, 12, { type: 'strike', key: '2,11' }),
        sub(4, 12, { type: 'strike', key: '0,canned' }),
        sub(5, 12, { type: 'strike', key: '0,canned' }),
      ],
    };
    const s = widgetState(m) as TodoState;
    assert.deepEqual([...s.tasks.entries()], [
      ['0,canned', { task: 'T', desc: 'd', completed: false }],
      ['2,11', { task: 'U', desc: '', completed: true }],
    ]);
    assert.equal(widgetText(m, String), '**To-do list: Task list**\n- ☐ T: d\n- ☑ U');
  });

  it('no widget, or one that is not a poll or to-do list', () => {
    assert.equal(widgetState({ sender_id: 1 }), null);
    assert.deepEqual(widgetState({ sender_id: 1, submessages: [sub(1, 1, { widget_type: 'zform', extra_data: {} })] }), { widget_type: 'zform' });
  });
});
