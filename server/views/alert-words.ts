/** GET / POST / DELETE /users/me/alert_words (Zulip's alert_words.py). */
import type { ApiRequest, ViewResult } from '../context.js';
import { doSetAlertWords } from '../actions/alert-words.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { v } from '../params/validate.js';
import { requireUser } from '../lib/people/require.js';

const MAX_LENGTH = 100;

function wordsParam(req: ApiRequest): string[] {
  const words = req.params.require('alert_words', t.json(v.list(v.str)));
  return words.map((w, i) => {
    const word = w.trim();
    if (!word) throw errors.badRequest(`alert_words[${i}] cannot be blank.`);
    if (word.length > MAX_LENGTH) throw errors.badRequest(`alert_words[${i}] is too long (limit: ${MAX_LENGTH} characters)`);
    return word;
  });
}

export function listAlertWords(req: ApiRequest): ViewResult {
  return { alert_words: requireUser(req).alert_words ?? [] };
}

export async function addAlertWords(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const words = [...(user.alert_words ?? [])];
  const seen = new Set(words.map((w) => w.toLowerCase()));
  for (const w of wordsParam(req)) {
    if (seen.has(w.toLowerCase())) continue;
    seen.add(w.toLowerCase());
    words.push(w);
  }
  if (words.length !== (user.alert_words ?? []).length) await doSetAlertWords(req.app, user, words);
  return { alert_words: words };
}

export async function removeAlertWords(req: ApiRequest): Promise<ViewResult> {
  const user = requireUser(req);
  const gone = new Set(wordsParam(req).map((w) => w.toLowerCase()));
  const before = user.alert_words ?? [];
  const words = before.filter((w) => !gone.has(w.toLowerCase()));
  if (words.length !== before.length) await doSetAlertWords(req.app, user, words);
  return { alert_words: words };
}
