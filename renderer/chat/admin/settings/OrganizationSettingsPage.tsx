/**
 * Organization settings: the Settings section (`#organization/settings`): the organization's own
 * settings, the Welcome Bot's note, Hearth's security switches, the icon, default channels, custom
 * profile fields, channel folders, custom emoji, linkifiers and the calls' STUN/TURN servers, one
 * card each (a file each beside this one). What they show comes from one register call, the channels from `GET /streams`.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../../ui/Notice.js';
import { Loading } from '../../ui/TableBox.js';
import { CallServers } from './CallServers.js';
import { ChannelFolders } from './ChannelFolders.js';
import { CustomEmoji } from './CustomEmoji.js';
import { DefaultChannels } from './DefaultChannels.js';
import { IconForm } from './IconForm.js';
import { Linkifiers } from './Linkifiers.js';
import { OrganizationForm } from './OrganizationForm.js';
import { ProfileFields } from './ProfileFields.js';
import { SecurityCard } from './SecurityCard.js';
import { type ChannelList, fetchChannels, fetchSettings, type SettingsState } from './settings-state.js';
import { WelcomeNote } from './WelcomeNote.js';

export function OrganizationSettingsPage() {
  const [state, setState] = useState<SettingsState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [list, setList] = useState<ChannelList>({ channels: null, error: null });
  useEffect(() => {
    let live = true;
    fetchSettings().then(
      (s) => live && setState(s),
      (err: unknown) => live && setError(errorText(err)),
    );
    // The channel pickers fill in once the channels come (the cards show before).
    fetchChannels().then(
      (channels) => live && setList({ channels, error: null }),
      (err: unknown) => live && setList({ channels: null, error: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, []);
  // The view's header names the section (Organization.tsx): no heading of its own here.
  if (error)
    return (
      <p class="notice notice-error" role="alert">
        Could not load settings: {error}
      </p>
    );
  if (!state) return <Loading what="settings" />;
  return (
    <div class="org-settings">
      <OrganizationForm state={state} list={list} />
      <WelcomeNote state={state} />
      <SecurityCard />
      <IconForm state={state} />
      <DefaultChannels state={state} list={list} />
      <ProfileFields state={state} />
      <ChannelFolders state={state} />
      <CustomEmoji />
      <Linkifiers state={state} />
      <CallServers state={state} />
    </div>
  );
}
