/**
 * Answers go out together at the end of the event loop's turn (server/events/turn-end.ts):
 * waiters share one wake-up per turn, the waker's batches run after the turn's answers are
 * released, and woken polls are written after those answers, so a sender hears back before
 * its message's deliveries.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TurnEnd } from '../../server/events/turn-end.js';
import { createChannel } from '../helpers/channels.js';
import { encodeParams, startTestServer, type Client, type TestServer } from '../helpers/server.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const authorization = (client: Client) => client.authHeader.authorization!;
const unexpected = (error: unknown) => assert.fail(`a write failed: ${String(error)}`);

describe('the end of the turn', () => {
  it('is one promise for every waiter of a turn, and a new one for the next', async () => {
    const turn = new TurnEnd(unexpected);
    const first = turn.wait();
    assert.equal(turn.wait(), first);
    let released = false;
    void first.then(() => (released = true));
    await Promise.resolve();
    assert.equal(released, false, 'released before the turn ended');
    await first;
    const second = turn.wait();
    assert.notEqual(second, first);
    await second;
  });

  it('runs later tasks after releasing the waiters, and writes after what the waiters do next', async () => {
    const turn = new TurnEnd(unexpected);
    const order: string[] = [];
    void turn
      .wait()
      .then(() => undefined)
      .then(() => order.push('answer'));
    turn.later(() => {
      order.push('task');
      turn.write(() => order.push('woken poll'));
    });
    await nextTurn();
    await nextTurn();
    assert.deepEqual(order, ['task', 'answer', 'woken poll']);
  });

  it('writes the rest when one write throws, and reports the error', async () => {
    const errors: unknown[] = [];
    const turn = new TurnEnd((error) => errors.push(error));
    const written: number[] = [];
    turn.write(() => written.push(1));
    turn.write(() => {
      throw new Error('socket gone');
    });
    turn.write(() => written.push(3));
    await nextTurn();
    assert.deepEqual(written, [1, 3]);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['socket gone'],
    );
  });

  it('runs a task asked for during the end of a turn at the next one', async () => {
    const turn = new TurnEnd(unexpected);
    const order: string[] = [];
    turn.later(() => {
      order.push('first');
      turn.later(() => order.push('second'));
    });
    await nextTurn();
    assert.deepEqual(order, ['first']);
    await nextTurn();
    assert.deepEqual(order, ['first', 'second']);
  });
});

describe('a send and the polls it wakes', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  /** A raw keep-alive socket; `answered` resolves with the arrival order of its first bytes. */
  function rawRequest(request: string, arrivals: string[], name: string): { socket: Socket; answered: Promise<string> } {
    const socket = connect(Number(new URL(ts.url).port), '127.0.0.1');
    let text = '';
    const answered = new Promise<string>((resolve) => {
      socket.on('data', (d) => {
        if (!text) arrivals.push(name);
        text += d.toString();
        if (/\r\n\r\n[\s\S]*\}$/.test(text)) resolve(text);
      });
    });
    socket.write(request);
    return { socket, answered };
  }

  it('answers the sender before the polls its message wakes, and every poll gets the message', async () => {
    const [mel, sam] = await ts.people('Mel', 'Sam');
    await createChannel(ts, ts.ownerClient, 'ordering', { principals: JSON.stringify([mel.account.id, sam.account.id]) });
    const arrivals: string[] = [];
    const polls: { answered: Promise<string>; socket: Socket }[] = [];
    const queueIds: string[] = [];
    for (const person of [mel, sam, mel, sam]) {
      const reg = await person.client.post('/register', { event_types: ['message'] });
      const q = reg.body as { queue_id: string };
      queueIds.push(q.queue_id);
      const path = `/api/v1/events?${encodeParams({ queue_id: q.queue_id, last_event_id: -1 })}`;
      polls.push(
        rawRequest(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(person.client)}\r\n\r\n`, arrivals, 'poll'),
      );
    }
    const deadline = Date.now() + 2000;
    while (queueIds.some((id) => !ts.app.events.get(id)?.isParked)) {
      if (Date.now() > deadline) throw new Error('the polls did not park');
      await nextTurn();
    }
    const body = encodeParams({ type: 'stream', to: 'ordering', topic: 'order', content: 'who hears first' }).toString();
    const send = rawRequest(
      `POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(mel.client)}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      arrivals,
      'send',
    );
    const sent = await send.answered;
    assert.match(sent, /^HTTP\/1\.1 200/);
    for (const p of polls) assert.match(await p.answered, /who hears first/);
    assert.deepEqual(arrivals, ['send', 'poll', 'poll', 'poll', 'poll']);
    for (const s of [send, ...polls]) s.socket.destroy();
  });
});
