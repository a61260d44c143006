/** User groups as clients get them (register's `realm_user_groups`, `user_group` events). */

/** Zulip's group-setting value: a group ID, or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  /** Who may do what with the group (Zulip's group-setting values). */
  can_add_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
  deactivated: boolean;
  date_created: number | null;
  creator_id: number | null;
}
