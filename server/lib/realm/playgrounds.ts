/**
 * Code playgrounds (Zulip's RealmPlayground): for code blocks of a language,
 * clients offer "view in playground" links built from the URL template with
 * the code in `{code}`. Hearth stores and announces them; clients build the links.
 */
import type { App } from '../../context.js';
import { errors } from '../../errors.js';
import { safeHref } from '../../markdown/urls.js';
import type { PlaygroundRecord } from '../../store/records.js';
import { expandTemplate, parseUrlTemplate, templateVariables } from './linkifiers.js';

/** Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH. */
const MAX_LANGUAGE_LENGTH = 40;
// Zulip's check_pygments_language (its `+-.` is a range, kept as is).
const LANGUAGE = /^[ a-zA-Z0-9_+-./#]*$/;

export const playgroundsForApi = (app: App): PlaygroundRecord[] =>
  (app.store.realm.data.realm?.playgrounds ?? []).map((p) => ({ ...p }));

export function checkPlayground(app: App, name: string, language: string, urlTemplate: string): void {
  if (!name) throw errors.badRequest('Name must not be empty');
  if (language.length > MAX_LANGUAGE_LENGTH) throw errors.badRequest(`pygments_language is too long (limit: ${MAX_LANGUAGE_LENGTH} characters)`);
  if (!LANGUAGE.test(language)) throw errors.badRequest('Invalid characters in pygments language');
  const template = parseUrlTemplate(urlTemplate);
  if (!template || !safeHref(expandTemplate(template, { code: 'x' }))) throw errors.badRequest('Invalid URL template.');
  const vars = templateVariables(template);
  if (!vars.includes('code')) throw errors.badRequest('Missing the required variable "code" in the URL template');
  if (vars.some((v) => v !== 'code')) throw errors.badRequest('"code" should be the only variable present in the URL template');
  if ((app.store.realm.data.realm?.playgrounds ?? []).some((p) => p.name === name && p.pygments_language === language)) {
    throw errors.badRequest('Realm playground with this Realm, Pygments language and Name already exists.');
  }
}
