/**
 * Custom profile fields: their API shape, the eight types, and validation of
 * a field's definition (Zulip's zerver/views/custom_profile_fields.py rules).
 */
import type { App } from '../../context.js';
import type { ProfileField } from '../../protocol/user.js';
import { errors } from '../../errors.js';
import { PROFILE_FIELD_TYPE as T, type ProfileFieldRecord } from '../../store/records.js';
import { own } from '../own.js';

export const NAME_MAX = 40;
export const HINT_MAX = 80;
/** At most this many fields are shown in the profile summary (Zulip's limit). */
export const MAX_SUMMARY_FIELDS = 2;

/** `custom_profile_field_types` of the register response (Zulip's names and labels). */
export const FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: T.SHORT_TEXT, name: 'Text (short)' },
  LONG_TEXT: { id: T.LONG_TEXT, name: 'Text (long)' },
  SELECT: { id: T.SELECT, name: 'List of options' },
  DATE: { id: T.DATE, name: 'Date picker' },
  URL: { id: T.URL, name: 'Link' },
  USER: { id: T.USER, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: T.EXTERNAL_ACCOUNT, name: 'External account' },
  PRONOUNS: { id: T.PRONOUNS, name: 'Pronouns' },
};
const TYPE_IDS: ReadonlySet<number> = new Set(Object.values(FIELD_TYPES).map((t) => t.id));

/** Types whose values are Markdown and carry `rendered_value`. */
export const isRenderable = (type: number) => type === T.SHORT_TEXT || type === T.LONG_TEXT;

/** The external-account subtypes with built-in names and URL patterns. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string; url_pattern: string }> = {
  github: { name: 'GitHub', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
  twitter: { name: 'Twitter', hint: 'Enter your Twitter username', url_pattern: 'https://twitter.com/%(username)s' },
};

export type FieldData = Record<string, unknown>;

export function formatProfileField(f: ProfileFieldRecord): ProfileField {
  const out: ProfileField = {
    id: f.id,
    name: f.name,
    type: f.type,
    hint: f.hint,
    field_data: f.field_data,
    order: f.order,
    required: f.required,
    editable_by_user: f.editable_by_user,
    use_for_user_matching: f.use_for_user_matching,
  };
  if (f.display_in_profile_summary) out.display_in_profile_summary = true;
  return out;
}

export const sortedFields = (app: App): ProfileFieldRecord[] =>
  [...app.store.profileFields.data.fields].sort((a, b) => a.order - b.order || a.id - b.id);

export const listProfileFields = (app: App) => sortedFields(app).map(formatProfileField);

export const fieldById = (app: App, id: number): ProfileFieldRecord | undefined =>
  app.store.profileFields.data.fields.find((f) => f.id === id);

export const isDefaultExternal = (type: number, data: FieldData) =>
  type === T.EXTERNAL_ACCOUNT && typeof data.subtype === 'string' && data.subtype !== 'custom';

/** The select choices `{key: {text, order}}` of a dropdown field. */
export function selectChoices(f: ProfileFieldRecord): Record<string, { text: string; order: string }> {
  try {
    return JSON.parse(f.field_data || '{}') as Record<string, { text: string; order: string }>;
  } catch {
    return {};
  }
}

function validateSelectData(data: FieldData): void {
  if (Object.keys(data).length < 1) throw errors.badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of Object.entries(data)) {
    const p = `field_data["${key}"]`;
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) throw errors.badRequest(`${p} is not a dict`);
    const c = choice as Record<string, unknown>;
    for (const k of ['text', 'order']) {
      if (!(k in c)) throw errors.badRequest(`${k} key is missing from ${p}`);
      if (typeof c[k] !== 'string') throw errors.badRequest(`${p}["${k}"] is not a string`);
      if (!(c[k] as string).trim()) throw errors.badRequest(`${p}["${k}"] cannot be blank.`);
    }
    for (const k of Object.keys(c)) if (k !== 'text' && k !== 'order') throw errors.badRequest(`Unexpected arguments: ${k}`);
    if (texts.has(c.text as string)) throw errors.badRequest('Field must not have duplicate choices.');
    texts.add(c.text as string);
  }
}

function validateExternalData(data: FieldData): void {
  const subtype = data.subtype;
  if (typeof subtype !== 'string') throw errors.badRequest('subtype key is missing from field_data');
  if (subtype === 'custom') {
    const pattern = data.url_pattern;
    if (typeof pattern !== 'string' || !pattern) throw errors.badRequest('Custom external account must define URL pattern');
    if ((pattern.match(/%\(username\)s/g) ?? []).length !== 1) {
      throw errors.badRequest("URL pattern must contain '%(username)s'.");
    }
    if (!/^https?:\/\/[^\s]+$/.test(pattern.replace('%(username)s', 'x'))) throw errors.badRequest('URL pattern must be a URL.');
  } else if (!own(DEFAULT_EXTERNAL_ACCOUNTS, subtype)) {
    throw errors.badRequest('Invalid external account type');
  }
  for (const k of Object.keys(data)) {
    if (k !== 'subtype' && k !== 'url_pattern') throw errors.badRequest(`Unexpected arguments: ${k}`);
  }
}

export interface FieldDefinition {
  name: string;
  hint: string;
  type: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
}

/** Checks a whole definition (create, or an update merged over the stored field). */
export function validateDefinition(app: App, def: FieldDefinition, selfId: number | null): void {
  if (!TYPE_IDS.has(def.type)) throw errors.badRequest('Invalid field type.');
  if (def.type === T.SELECT) validateSelectData(def.fieldData);
  else if (def.type === T.EXTERNAL_ACCOUNT) validateExternalData(def.fieldData);
  if (!isDefaultExternal(def.type, def.fieldData)) {
    if (!def.name.trim()) throw errors.badRequest('Label cannot be blank.');
    if (def.name.length > NAME_MAX) throw errors.badRequest(`name is too long (limit: ${NAME_MAX} characters)`);
    if (def.hint.length > HINT_MAX) throw errors.badRequest(`hint is too long (limit: ${HINT_MAX} characters)`);
  }
  if (def.displayInProfileSummary) {
    // Paragraph (long text) fields may be shown since Zulip 12 (feature level 476); person pickers may not.
    if (def.type === T.USER) {
      throw errors.badRequest('Field type not supported for display in profile summary.');
    }
    const others = app.store.profileFields.data.fields.filter((f) => f.display_in_profile_summary && f.id !== selfId);
    if (others.length >= MAX_SUMMARY_FIELDS) {
      throw errors.badRequest(`Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`);
    }
  }
  const clash = app.store.profileFields.data.fields.find(
    (f) => f.id !== selfId && f.name.toLowerCase() === def.name.trim().toLowerCase(),
  );
  if (clash) throw errors.badRequest('A field with that label already exists.');
}

/** `field_data` as stored: JSON text for dropdowns and external accounts, '' otherwise. */
export function storedFieldData(type: number, data: FieldData): string {
  if (type === T.SELECT || type === T.EXTERNAL_ACCOUNT) return JSON.stringify(data);
  return Object.keys(data).length ? JSON.stringify(data) : '';
}
