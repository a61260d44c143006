/**
 * The chat's hash links (renderer/chat/store/narrow.ts, search/search-terms.ts), under Node: every `#narrow/` form
 * Zulip's clients make opens the view it names (issue 29, item 11), Zulip's `.XX` encoding both ways,
 * and this client's own hashes still round-trip.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashOf, keyOf, viewOf, type FeedView, type View } from '../../renderer/chat/store/narrow.js';
import { decodeHashComponent, encodeHashComponent, parseSearch, termsFromPath, termsToPath } from '../../renderer/chat/search/search-terms.js';

const SELF = 5;
const EMAILS: Record<string, number> = { 'lucas@example.com': 6, 'mel@example.com': 7 };
const open = (hash: string) => viewOf(hash, SELF, (e) => EMAILS[e.toLowerCase()]);
const search = (...terms: [string, string, boolean?][]): View => ({
  kind: 'search',
  terms: terms.map(([operator, operand, negated]) => ({ operator, operand, negated: negated ?? false })),
});

describe("Zulip's hash encoding", () => {
  it('decodes .XX as the byte XX, and percent-escapes too', () => {
    assert.equal(decodeHashComponent('lunch.20plans'), 'lunch plans');
    assert.equal(decodeHashComponent('v1.2E2'), 'v1.2');
    assert.equal(decodeHashComponent('a.2Fb'), 'a/b');
    assert.equal(decodeHashComponent('100.25.20done'), '100% done');
    assert.equal(decodeHashComponent('.28draft.29'), '(draft)');
    assert.equal(decodeHashComponent('.C3.A9t.C3.A9'), 'été');
    assert.equal(decodeHashComponent('.F0.9F.8E.89'), '🎉');
    assert.equal(decodeHashComponent('lunch%20plans'), 'lunch plans');
    assert.equal(decodeHashComponent('%C3%A9t%C3%A9'), 'été');
    assert.equal(decodeHashComponent('lucas.40example.2Ecom'), 'lucas@example.com');
  });

  it('reads what is not in that form as it stands (written by hand, or by an older Hearth)', () => {
    assert.equal(decodeHashComponent('v1.2'), 'v1.2');
    assert.equal(decodeHashComponent('file.txt'), 'file.txt');
    assert.equal(decodeHashComponent('1.5.0'), '1.5.0');
    assert.equal(decodeHashComponent('50%'), '50%');
    assert.equal(decodeHashComponent('plain'), 'plain');
    assert.equal(decodeHashComponent(''), '');
  });

  it('encodes as Zulip does: no %, (, ), quote, slash or space in a component, and back again', () => {
    assert.equal(encodeHashComponent('lunch plans'), 'lunch.20plans');
    assert.equal(encodeHashComponent('v1.2 (draft)'), 'v1.2E2.20.28draft.29');
    assert.equal(encodeHashComponent('100%'), '100.25');
    assert.equal(encodeHashComponent("it's!"), 'it.27s.21');
    for (const s of ['v1.2 (draft)', '100% done', 'a/b', 'été', "it's", 'x.y.z', '🎉 party', '', '.', '..', '.2E', 'a.20b', 'tab\there', '#hash?q=1&x', 'Ünïcödé ✓']) {
      const e = encodeHashComponent(s);
      assert.doesNotMatch(e, /[%()'!/#?&\s]/, `${s} → ${e}`);
      assert.equal(decodeHashComponent(e), s);
    }
  });
});

describe('#narrow/ links from Zulip', () => {
  it('direct messages: dm/ID-name, groups, oneself left out, IDs sorted and the ID winning over the name', () => {
    assert.deepEqual(open('#narrow/dm/6-Lucas-Moreau'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/dm/6,7-group'), { kind: 'dm', userIds: [6, 7] });
    assert.deepEqual(open('#narrow/dm/7,6-group'), { kind: 'dm', userIds: [6, 7] });
    assert.deepEqual(open('#narrow/dm/5,6-dm'), { kind: 'dm', userIds: [6] }, 'a message link names oneself too');
    assert.deepEqual(open('#narrow/dm/5,6,7-group'), { kind: 'dm', userIds: [6, 7] });
    assert.deepEqual(open('#narrow/dm/5-Olive-Owner'), { kind: 'dm', userIds: [] }, 'messages to oneself');
    assert.deepEqual(open('#narrow/dm/6-Someone-Renamed'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/dm/6-L.C3.BAcas'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/dm/6'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/dm/me'), { kind: 'dm', userIds: [] });
  });

  it('the older pm-with/ and group-pm-with/ forms, with IDs or addresses', () => {
    assert.deepEqual(open('#narrow/pm-with/6-lucas'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/pm-with/6,7-pm'), { kind: 'dm', userIds: [6, 7] });
    assert.deepEqual(open('#narrow/pm-with/lucas@example.com'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/pm-with/lucas.40example.2Ecom'), { kind: 'dm', userIds: [6] });
    assert.deepEqual(open('#narrow/pm-with/Lucas@Example.com,mel@example.com'), { kind: 'dm', userIds: [6, 7] });
    // Someone this client does not know: the server answers the search (and says so).
    assert.deepEqual(open('#narrow/pm-with/nobody@example.com'), search(['dm', 'nobody@example.com']));
    assert.deepEqual(open('#narrow/group-pm-with/6-lucas'), search(['dm-including', '6']));
    assert.deepEqual(open('#narrow/dm-including/6-lucas'), search(['dm-including', '6']));
  });

  it('channels and topics: channel/ and the older stream/, ID-name slugs, subject/, .XX topics', () => {
    assert.deepEqual(open('#narrow/channel/3-general'), { kind: 'channel', streamId: 3 });
    assert.deepEqual(open('#narrow/stream/3-general'), { kind: 'channel', streamId: 3 });
    assert.deepEqual(open('#narrow/channel/3'), { kind: 'channel', streamId: 3 });
    assert.deepEqual(open('#narrow/channel/3-2024-plans'), { kind: 'channel', streamId: 3 });
    assert.deepEqual(open('#narrow/channel/3-Sales-.26-Marketing'), { kind: 'channel', streamId: 3 });
    assert.deepEqual(open('#narrow/channel/3-old-name/topic/lunch.20plans'), { kind: 'topic', streamId: 3, topic: 'lunch plans' });
    assert.deepEqual(open('#narrow/stream/3-general/topic/v1.2E2.20.28draft.29'), { kind: 'topic', streamId: 3, topic: 'v1.2 (draft)' });
    assert.deepEqual(open('#narrow/stream/3-general/subject/lunch'), { kind: 'topic', streamId: 3, topic: 'lunch' });
    assert.deepEqual(open('#narrow/channel/3-general/topic/a.2Fb'), { kind: 'topic', streamId: 3, topic: 'a/b' });
    assert.deepEqual(open('#narrow/channel/3-general/topic/.C3.A9t.C3.A9'), { kind: 'topic', streamId: 3, topic: 'été' });
    assert.deepEqual(open('#narrow/channel/3-general/topic/'), { kind: 'topic', streamId: 3, topic: '' }, 'the general chat topic');
    assert.deepEqual(open('#narrow/channel/3-general/topic/lunch/'), { kind: 'topic', streamId: 3, topic: 'lunch' }, 'a trailing slash');
    assert.deepEqual(open('#narrow/Stream/3-general/Topic/lunch'), { kind: 'topic', streamId: 3, topic: 'lunch' });
    // A name alone (the oldest links): the server reads names, as a search.
    assert.deepEqual(open('#narrow/stream/general'), search(['channel', 'general']));
  });

  it('near/ID and with/ID open the conversation at the message', () => {
    assert.deepEqual(open('#narrow/channel/3-general/topic/lunch/near/99'), { kind: 'topic', streamId: 3, topic: 'lunch', near: 99 });
    assert.deepEqual(open('#narrow/channel/3-general/topic/lunch/with/99'), { kind: 'topic', streamId: 3, topic: 'lunch', near: 99 });
    assert.deepEqual(open('#narrow/stream/3-general/near/99'), { kind: 'channel', streamId: 3, near: 99 });
    assert.deepEqual(open('#narrow/dm/5,6-dm/near/99'), { kind: 'dm', userIds: [6], near: 99 });
    assert.deepEqual(open('#narrow/pm-with/6-lucas/with/99'), { kind: 'dm', userIds: [6], near: 99 });
    assert.deepEqual(open('#narrow/near/99'), search(['id', '99']), 'only a place: that message');
    assert.deepEqual(open('#narrow/id/99'), search(['id', '99']));
    assert.deepEqual(open('#narrow/is/mentioned/near/99'), { kind: 'mentions' });
  });

  it('is/, in/, search/, sender/ and negated terms', () => {
    assert.deepEqual(open('#narrow/is/mentioned'), { kind: 'mentions' });
    assert.deepEqual(open('#narrow/is/starred'), { kind: 'starred' });
    assert.deepEqual(open('#narrow/in/home'), { kind: 'feed' });
    assert.deepEqual(open('#narrow/is/dm'), search(['is', 'dm']));
    assert.deepEqual(open('#narrow/is/unread'), search(['is', 'unread']));
    assert.deepEqual(open('#narrow/is/resolved'), search(['is', 'resolved']));
    assert.deepEqual(open('#narrow/search/lunch.20plans'), search(['search', 'lunch plans']));
    assert.deepEqual(open('#narrow/search/lunch%20plans'), search(['search', 'lunch plans']));
    assert.deepEqual(open('#narrow/channel/3-general/search/pizza'), search(['channel', '3'], ['search', 'pizza']));
    assert.deepEqual(open('#narrow/channel/3-general/topic/lunch/search/pizza/near/9'), search(['channel', '3'], ['topic', 'lunch'], ['search', 'pizza']));
    assert.deepEqual(open('#narrow/sender/6-Lucas-Moreau'), search(['sender', '6']));
    assert.deepEqual(open('#narrow/sender/lucas.40example.2Ecom'), search(['sender', 'lucas@example.com']));
    assert.deepEqual(open('#narrow/channel/3-general/-topic/lunch'), search(['channel', '3'], ['topic', 'lunch', true]));
    assert.deepEqual(open('#narrow/-channel/3-general'), search(['channel', '3', true]));
    assert.deepEqual(open('#narrow/dm-including/6-Lucas'), search(['dm-including', '6']));
    assert.deepEqual(open('#narrow/has/link'), search(['has', 'link']));
    assert.deepEqual(open('#narrow/channels/public'), search(['channels', 'public']));
  });

  it('what is not a narrow opens the Inbox', () => {
    for (const h of ['', '#', '#narrow', '#narrow/', '#narrow/channel', '#narrow/bogus/1', '#narrow/channel/3/bogus/x', '#whatever', '#narrow/near/x']) {
      assert.deepEqual(open(h), { kind: 'inbox' }, h);
    }
  });

  it("Zulip's other page hashes", () => {
    assert.deepEqual(open('#inbox'), { kind: 'inbox' });
    assert.deepEqual(open('#all_messages'), { kind: 'feed' });
    assert.deepEqual(open('#recent_topics'), { kind: 'recent' });
    assert.deepEqual(open('#channels/subscribed'), { kind: 'channels' });
    assert.deepEqual(open('#channels/3/general/general'), { kind: 'channels' });
    assert.deepEqual(open('#streams/all'), { kind: 'channels' });
  });
});

describe("this client's own hashes", () => {
  const names: Record<number, string> = { 3: 'general', 4: 'Sales & Marketing', 8: 'v2.0 (beta)' };
  const channelName = (id: number) => names[id] ?? '';

  it('write channels as Zulip does (ID-name, spaces as -, .XX) and topics .XX-encoded', () => {
    assert.equal(hashOf({ kind: 'channel', streamId: 3 }, channelName), '#narrow/channel/3-general');
    assert.equal(hashOf({ kind: 'channel', streamId: 4 }, channelName), '#narrow/channel/4-Sales-.26-Marketing');
    assert.equal(hashOf({ kind: 'topic', streamId: 8, topic: 'lunch plans (v1.2)' }, channelName), '#narrow/channel/8-v2.2E0-.28beta.29/topic/lunch.20plans.20.28v1.2E2.29');
    assert.equal(hashOf({ kind: 'dm', userIds: [6, 7], near: 99 }), '#narrow/dm/6,7/near/99');
    assert.equal(hashOf({ kind: 'search', terms: parseSearch('channel:general topic:"lunch plans" pizza') }), '#narrow/channel/general/topic/lunch.20plans/search/pizza');
  });

  it('read back every view they write, whatever the names and topics', () => {
    const topics = ['lunch', 'v1.2 (draft)', '100% done', 'a/b', 'été', "it's", '🎉', '', 'near/5', 'x.20y', '-topic'];
    const views: View[] = [
      { kind: 'inbox' },
      { kind: 'recent' },
      { kind: 'channels' },
      { kind: 'feed' },
      { kind: 'drafts' },
      { kind: 'scheduled' },
      { kind: 'people' },
      { kind: 'account' },
      { kind: 'settings', tab: 'notifications' },
      { kind: 'settings', tab: 'alert-words' },
      { kind: 'mentions' },
      { kind: 'starred' },
      { kind: 'channel', streamId: 3 },
      { kind: 'channel', streamId: 4, near: 12 },
      ...topics.map((topic): View => ({ kind: 'topic', streamId: 8, topic })),
      ...topics.map((topic): View => ({ kind: 'topic', streamId: 4, topic, near: 7 })),
      { kind: 'dm', userIds: [] },
      { kind: 'dm', userIds: [6] },
      { kind: 'dm', userIds: [6, 7], near: 99 },
      search(['search', 'lunch plans']),
      search(['sender', 'me'], ['search', 'pizza']),
      search(['channel', 'general'], ['topic', 'v1.2 (draft)', true], ['has', 'link']),
      search(['dm', 'mel@example.com,someone@else.org'], ['search', '"extra cheese" 100%']),
    ];
    for (const v of views) {
      assert.deepEqual(viewOf(hashOf(v, channelName), SELF), v, hashOf(v, channelName));
      assert.deepEqual(viewOf(hashOf(v)), v, `without names: ${hashOf(v)}`);
    }
  });

  it('feed keys (hashes without names) read back as their feed, as message-events.ts reads them', () => {
    const feeds: FeedView[] = [
      { kind: 'topic', streamId: 3, topic: 'v1.2 (draft)' },
      { kind: 'channel', streamId: 3 },
      { kind: 'dm', userIds: [6, 7] },
      { kind: 'mentions' },
      { kind: 'starred' },
      { kind: 'feed' },
    ];
    for (const v of feeds) assert.deepEqual(viewOf(keyOf(v)), v);
  });

  it('search terms travel in the path and back', () => {
    const terms = parseSearch('-channel:"Sales & Marketing" topic:"v1.2 (draft)" sender:mel@example.com has:link is:starred -lunch "extra cheese"');
    assert.deepEqual(termsFromPath(termsToPath(terms)), terms);
    assert.equal(termsFromPath('channel'), null);
    assert.equal(termsFromPath('nonsense/1'), null);
  });
});
