/**
 * The bots endpoints against the eight callers (owner, administrator, moderator,
 * member, guest, bot, deactivated user, anonymous): each answer, and what is stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Caller, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type ApiResponse, type TestServer } from '../helpers/server.js';

let ts: TestServer;
let cast: Cast;
let keeper: Account;

before(async () => {
  ts = await startTestServer();
  cast = await castOf(ts);
  keeper = await ts.addUser('Keeper', 400);
});
after(() => ts.stop());

type Outcome = 'ok' | 'guest' | 'bot' | 'insufficient' | 'deactivated' | 'anonymous';

function expectOutcome(res: ApiResponse, outcome: Outcome, label: string): void {
  const body = JSON.stringify(res.body);
  switch (outcome) {
    case 'ok':
      assert.equal(res.status, 200, `${label}: ${body}`);
      assert.equal(res.body.result, 'success');
      return;
    case 'guest':
      assert.equal(res.status, 400, `${label}: ${body}`);
      assert.equal(res.body.msg, 'Not allowed for guest users', label);
      return;
    case 'bot':
      assert.equal(res.status, 400, `${label}: ${body}`);
      assert.equal(res.body.msg, 'This endpoint does not accept bot requests.', label);
      return;
    case 'insufficient':
      assert.equal(res.status, 400, `${label}: ${body}`);
      assert.equal(res.body.code, 'BAD_REQUEST', label);
      assert.equal(res.body.msg, 'Insufficient permission', label);
      return;
    case 'deactivated':
      assert.equal(res.status, 401, `${label}: ${body}`);
      assert.equal(res.body.code, 'UNAUTHORIZED', label);
      return;
    case 'anonymous':
      assert.equal(res.status, 401, `${label}: ${body}`);
      assert.equal(res.body.code, 'UNAUTHORIZED', label);
      return;
  }
}

/** Who may create and list bots: every non-guest human (Zulip's require_member_or_admin). */
const CREATE: Record<Caller, Outcome> = {
  owner: 'ok',
  admin: 'ok',
  moderator: 'ok',
  member: 'ok',
  guest: 'guest',
  bot: 'bot',
  deactivated: 'deactivated',
  anonymous: 'anonymous',
};

/** Administering someone else's bot: administrators only (PATCH and regenerate refuse guests and bots first). */
const ADMINISTER: Record<Caller, Outcome> = {
  owner: 'ok',
  admin: 'ok',
  moderator: 'insufficient',
  member: 'insufficient',
  guest: 'guest',
  bot: 'bot',
  deactivated: 'deactivated',
  anonymous: 'anonymous',
};

/** DELETE /bots/{id} has no member-or-admin check in Zulip: everyone else is simply not the bot's administrator. */
const DEACTIVATE: Record<Caller, Outcome> = { ...ADMINISTER, guest: 'insufficient', bot: 'insufficient' };

let n = 0;
async function keepersBot() {
  const res = await ts.client(keeper).post('/bots', { full_name: `Target ${++n}`, short_name: `target${n}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return ts.store.users.get(res.body.user_id)!;
}

describe('bots role matrix', () => {
  for (const caller of CALLERS) {
    it(`POST /bots and GET /bots as ${caller}`, async () => {
      const before = ts.store.users.count;
      const res = await cast.client(caller).post('/bots', { full_name: `By ${caller}`, short_name: `by-${caller}` });
      expectOutcome(res, CREATE[caller], `POST /bots as ${caller}`);
      if (CREATE[caller] === 'ok') {
        const bot = ts.store.users.get(res.body.user_id)!;
        assert.equal(bot.is_bot, true);
        assert.equal(bot.bot_owner_id, cast[caller as Exclude<Caller, 'anonymous'>].id);
        assert.equal(bot.email, `by-${caller}-bot@hearth.local`);
        const list = await cast.client(caller).get('/bots');
        expectOutcome(list, 'ok', `GET /bots as ${caller}`);
        // Their own active bots only (the cast's member already owns the cast's bot).
        const owned = ts.store.users.all().filter((u) => u.is_bot && u.is_active && u.bot_owner_id === bot.bot_owner_id);
        assert.deepEqual(
          list.body.bots.map((b: { user_id: number }) => b.user_id).sort(),
          owned.map((u) => u.id).sort(),
        );
        assert.ok(owned.some((u) => u.id === bot.id));
      } else {
        assert.equal(ts.store.users.count, before);
        expectOutcome(await cast.client(caller).get('/bots'), CREATE[caller], `GET /bots as ${caller}`);
      }
    });

    it(`PATCH /bots/{id} as ${caller}`, async () => {
      const bot = await keepersBot();
      const name = bot.full_name;
      const res = await cast.client(caller).patch(`/bots/${bot.id}`, { full_name: `Renamed by ${caller}` });
      expectOutcome(res, ADMINISTER[caller], `PATCH as ${caller}`);
      assert.equal(bot.full_name, ADMINISTER[caller] === 'ok' ? `Renamed by ${caller}` : name);
    });

    it(`POST /bots/{id}/api_key/regenerate as ${caller}`, async () => {
      const bot = await keepersBot();
      const key = bot.api_key;
      const res = await cast.client(caller).post(`/bots/${bot.id}/api_key/regenerate`);
      expectOutcome(res, ADMINISTER[caller], `regenerate as ${caller}`);
      if (ADMINISTER[caller] === 'ok') {
        assert.equal(res.body.api_key, bot.api_key);
        assert.notEqual(bot.api_key, key);
      } else {
        assert.equal(bot.api_key, key);
        assert.equal(res.body.api_key, undefined);
      }
    });

    it(`DELETE /bots/{id} as ${caller}`, async () => {
      const bot = await keepersBot();
      const res = await cast.client(caller).delete(`/bots/${bot.id}`);
      expectOutcome(res, DEACTIVATE[caller], `DELETE as ${caller}`);
      assert.equal(bot.is_active, DEACTIVATE[caller] !== 'ok');
    });
  }

  it("the bot's owner administers it without being an administrator", async () => {
    const bot = await keepersBot();
    const client = ts.client(keeper);
    expectOutcome(await client.patch(`/bots/${bot.id}`, { full_name: 'Mine' }), 'ok', 'owner PATCH');
    expectOutcome(await client.post(`/bots/${bot.id}/api_key/regenerate`), 'ok', 'owner regenerate');
    expectOutcome(await client.delete(`/bots/${bot.id}`), 'ok', 'owner DELETE');
    assert.equal(bot.full_name, 'Mine');
    assert.equal(bot.is_active, false);
  });
});
