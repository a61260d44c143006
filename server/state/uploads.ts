import type { StateSection } from '../events/state.js';

/**
 * `realm_upload_quota_mib` (register, `realm`): the organization's total upload
 * quota; null, as on a self-hosted Zulip: Hearth has none (the per-file limit is
 * `max_file_upload_size_mib`, in the `realm` section).
 */
const uploadQuotaSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({ realm_upload_quota_mib: null }),
};

export const sections = [uploadQuotaSection];
