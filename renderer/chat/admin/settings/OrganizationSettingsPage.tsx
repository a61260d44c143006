/** (Being moved from renderer/settings.ts into the web app.) */
export function OrganizationSettingsPage() {
  return <p class="loading">Moving…</p>;
}
