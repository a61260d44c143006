import type { StateSection } from '../events/state.js';
import { uploadQuotaMib } from '../lib/uploads/limits.js';

/**
 * `realm_upload_quota_mib` (register, `realm`): the organization's total upload quota in MiB
 * (owners set it as `hearth_upload_quota_mib`), null for none; display only, as Zulip says
 * (the per-file limit is `max_file_upload_size_mib`, in the `realm` section).
 */
const uploadQuotaSection: StateSection = {
  wants: ['realm'],
  fetch: (ctx) => ({ realm_upload_quota_mib: uploadQuotaMib(ctx.app) }),
};

export const sections = [uploadQuotaSection];
